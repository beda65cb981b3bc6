import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A file whose renditions are to be made; claimed by a worker through `holder` and `lease_until`. */
@Entity('rendition_tasks')
export class RenditionTaskEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'asset_id', type: 'integer' })
  assetId: number;

  @Column({ name: 'file_id', type: 'integer' })
  fileId: number;

  @Column({ type: 'varchar', length: 64, nullable: true })
  holder: string | null;

  @Column({ name: 'lease_until', type: 'datetime', nullable: true })
  leaseUntil: Date | null;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ name: 'created_at', type: 'datetime' })
  createdAt: Date;
}
