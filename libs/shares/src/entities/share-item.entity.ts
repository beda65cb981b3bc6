import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One asset of a share's snapshot, at its position (1, 2, ...: the item's number in its download URL). */
@Entity('share_items')
export class ShareItemEntity {
  @PrimaryColumn({ name: 'share_id', type: 'integer' })
  shareId: number;

  @PrimaryColumn({ type: 'integer' })
  position: number;

  @Column({ name: 'asset_id', type: 'integer' })
  assetId: number;
}
