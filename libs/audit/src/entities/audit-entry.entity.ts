import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One audited change (AuditEntries migration). */
@Entity('audit_entries')
export class AuditEntryEntity {
  /** bigint on MySQL, whose driver may hand it back as a string: read through Number(). */
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'datetime' })
  at: Date;

  @Column({ name: 'actor_user_id', type: 'integer', nullable: true })
  actorUserId: number | null;

  @Column({ name: 'client_id', type: 'varchar', length: 100, nullable: true })
  clientId: string | null;

  @Column({ name: 'request_id', type: 'varchar', length: 100, nullable: true })
  requestId: string | null;

  @Column({ type: 'varchar', length: 64 })
  action: string;

  /** The collection of the target under /rest (`assets`, `users`, `groups`, `categories`, ...). */
  @Column({ name: 'target_type', type: 'varchar', length: 32 })
  targetType: string;

  /** Null when the action has no target (a failed login under a username no user has). */
  @Column({ name: 'target_id', type: 'integer', nullable: true })
  targetId: number | null;

  /** JSON `{field: {before, after}}`, or null when the change did not say. */
  @Column({ type: 'text', nullable: true })
  changes: string | null;
}
