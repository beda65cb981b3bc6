import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A lease on one tus upload, held by one request on one instance (DatabaseLocker). */
@Entity('tus_locks')
export class TusLockEntity {
  @PrimaryColumn({ name: 'upload_id', type: 'varchar', length: 32 })
  uploadId: string;

  /** Random per lock: a request, not an instance. */
  @Column({ type: 'varchar', length: 64 })
  holder: string;

  /** Whole seconds; renewed by the holder's heartbeat, free for anyone once past. */
  @Column({ name: 'expires_at', type: 'datetime' })
  expiresAt: Date;

  /** Another request waits for this lock: the holder should finish up and release it. */
  @Column({ name: 'release_requested', type: 'boolean', default: false })
  releaseRequested: boolean;
}
