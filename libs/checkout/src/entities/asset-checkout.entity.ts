import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One row per checked-out asset; the primary key makes concurrent check-outs have exactly one winner. */
@Entity('asset_checkouts')
export class AssetCheckoutEntity {
  @PrimaryColumn({ name: 'asset_id', type: 'integer' })
  assetId: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ name: 'checked_out_at', type: 'datetime' })
  checkedOutAt: Date;
}
