import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One stored file of an asset: the current one, one awaiting approval, or an earlier version. */
@Entity('asset_files')
export class AssetFileEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'asset_id', type: 'integer' })
  assetId: number;

  @Column({ name: 'storage_key', type: 'varchar', length: 255 })
  storageKey: string;

  @Column({ name: 'original_filename', type: 'varchar', length: 255 })
  originalFilename: string;

  @Column({ name: 'content_type', type: 'varchar', length: 128 })
  contentType: string;

  /** bigint: drivers hand it back as a string beyond 2^53, so it is read as a string and converted. */
  @Column({
    type: 'bigint',
    transformer: { to: (value: number) => value, from: (value: string | number) => Number(value) },
  })
  size: number;

  @Column({ type: 'varchar', length: 64 })
  sha256: string;

  @Column({ type: 'integer' })
  version: number;

  @Column({ name: 'is_current', type: 'boolean', default: false })
  isCurrent: boolean;

  @Column({ name: 'is_pending', type: 'boolean', default: false })
  isPending: boolean;

  /** For a pending file: approving it keeps the current file as an earlier version. */
  @Column({ name: 'as_new_version', type: 'boolean', default: false })
  asNewVersion: boolean;

  @Column({ name: 'uploaded_by_user_id', type: 'integer', nullable: true })
  uploadedByUserId: number | null;

  @Column({ name: 'created_at', type: 'datetime' })
  createdAt: Date;
}
