import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A tus upload: which asset it becomes the content of, and who may continue it. */
@Entity('tus_uploads')
export class TusUploadEntity {
  /** 32 lowercase hex digits: the last segment of the upload URL; the bytes are under `tus/{id}`. */
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ name: 'asset_id', type: 'integer' })
  assetId: number;

  @Column({ name: 'created_by_user_id', type: 'integer', nullable: true })
  createdByUserId: number | null;

  @Column({ name: 'created_at', type: 'datetime' })
  createdAt: Date;

  /** When it became the asset's content; its bytes are removed right after. */
  @Column({ name: 'completed_at', type: 'datetime', nullable: true })
  completedAt: Date | null;
}
