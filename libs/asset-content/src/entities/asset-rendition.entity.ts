import { Column, Entity, PrimaryColumn } from 'typeorm';

export const RENDITION_KINDS = ['thumbnail', 'preview', 'display', 'large'] as const;
export type RenditionKind = (typeof RENDITION_KINDS)[number];

/** A JPEG generated from the asset's current file. */
@Entity('asset_renditions')
export class AssetRenditionEntity {
  @PrimaryColumn({ name: 'asset_id', type: 'integer' })
  assetId: number;

  @PrimaryColumn({ type: 'varchar', length: 16 })
  kind: RenditionKind;

  @Column({ name: 'storage_key', type: 'varchar', length: 255 })
  storageKey: string;

  @Column({ name: 'content_type', type: 'varchar', length: 128 })
  contentType: string;

  @Column({ type: 'integer' })
  width: number;

  @Column({ type: 'integer' })
  height: number;

  @Column({ name: 'source_file_id', type: 'integer' })
  sourceFileId: number;

  @Column({ name: 'created_at', type: 'datetime' })
  createdAt: Date;
}
