import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Edits by a user with only edit-with-approval permission, applied when the asset is approved. */
@Entity('asset_pending_edits')
export class AssetPendingEditEntity {
  @PrimaryColumn({ name: 'asset_id', type: 'integer' })
  assetId: number;

  @Column({ name: 'edited_by_user_id', type: 'integer', nullable: true })
  editedByUserId: number | null;

  /** JSON of AssetChanges. */
  @Column({ type: 'text' })
  changes: string;

  @Column({ name: 'created_at', type: 'datetime' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'datetime' })
  updatedAt: Date;
}
