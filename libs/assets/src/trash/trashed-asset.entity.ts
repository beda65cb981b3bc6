import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/** A deleted asset kept restorable (TrashedAssets migration). */
@Entity('trashed_assets')
export class TrashedAssetEntity {
  @PrimaryGeneratedColumn()
  id: number;

  /** The id it had and has again once restored (ids are never reused). */
  @Column({ name: 'asset_id', type: 'integer' })
  assetId: number;

  /** Its title when it was deleted, for the list. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  title: string | null;

  @Column({ name: 'deleted_by_user_id', type: 'integer', nullable: true })
  deletedByUserId: number | null;

  @Column({ name: 'deleted_at', type: 'datetime' })
  deletedAt: Date;

  @Column({ name: 'purge_at', type: 'datetime' })
  purgeAt: Date;

  /** The JSON of an AssetSnapshot; read only to restore. */
  @Column({ type: 'text', select: false })
  snapshot: string;
}

/** A stored object a trashed asset's rows refer to: kept by the orphan sweep, deleted by a purge. */
@Entity('trashed_asset_objects')
export class TrashedAssetObjectEntity {
  @PrimaryColumn({ name: 'trash_id', type: 'integer' })
  trashId: number;

  @PrimaryColumn({ name: 'storage_key', type: 'varchar', length: 255 })
  storageKey: string;
}
