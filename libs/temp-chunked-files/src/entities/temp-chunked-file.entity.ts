import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A temporary file assembled from numbered chunks; `touchedAt` moves on every chunk upload and read. */
@Entity('temp_chunked_files')
export class TempChunkedFileEntity {
  /** Random UUID v4: the file's only name, also used in its storage keys. */
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'created_by_user_id', type: 'integer', nullable: true })
  createdByUserId: number | null;

  @Column({ name: 'created_at', type: 'datetime' })
  createdAt: Date;

  @Column({ name: 'touched_at', type: 'datetime' })
  touchedAt: Date;
}
