import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A named collection of assets belonging to one user. */
@Entity('lightboxes')
export class LightboxEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  /** SHA-256 of the name: unique per user, compared byte for byte on every database. */
  @Column({ name: 'name_key', type: 'varchar', length: 64 })
  nameKey: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ name: 'created_at', type: 'datetime' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'datetime' })
  updatedAt: Date;
}
