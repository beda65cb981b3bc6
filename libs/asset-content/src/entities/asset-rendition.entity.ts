import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The images every previewable file gets (JPEGs). */
export const RENDITION_KINDS = ['thumbnail', 'preview', 'display', 'large'] as const;
export type ImageRenditionKind = (typeof RENDITION_KINDS)[number];
/** `video`: a video's web proxy (MP4, H.264/AAC, at most 720p). */
export type RenditionKind = ImageRenditionKind | 'video';

/** A JPEG generated from the asset's current file, or a video's web proxy. */
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

  /** A video's duration, on its proxy's row (null elsewhere). */
  @Column({ name: 'duration_ms', type: 'integer', nullable: true })
  durationMs: number | null;

  /** A video's codec as ffmpeg names it (`h264`, `prores`), on its proxy's row. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  codec: string | null;

  @Column({ name: 'created_at', type: 'datetime' })
  createdAt: Date;
}
