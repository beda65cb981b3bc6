import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An asset in a lightbox; the primary key keeps one copy however often it is added. */
@Entity('lightbox_assets')
export class LightboxAssetEntity {
  @PrimaryColumn({ name: 'lightbox_id', type: 'integer' })
  lightboxId: number;

  @PrimaryColumn({ name: 'asset_id', type: 'integer' })
  assetId: number;

  @Column({ name: 'added_at', type: 'datetime' })
  addedAt: Date;
}
