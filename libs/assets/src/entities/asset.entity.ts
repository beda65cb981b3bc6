import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The core row of an asset. Access levels, categories, values, parents and pending edits hang off it. */
@Entity('assets')
export class AssetEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'boolean', default: true })
  submitted: boolean;

  /** Uploaded by a user with only upload-with-approval permission and not yet approved. */
  @Column({ name: 'upload_pending', type: 'boolean', default: false })
  uploadPending: boolean;

  /** A new file uploaded with edit-with-approval awaits approval (kept by the content area). */
  @Column({ name: 'content_pending', type: 'boolean', default: false })
  contentPending: boolean;

  @Column({ type: 'boolean', default: false })
  archived: boolean;

  /** File, Image, Video or Audio, from the content. */
  @Column({ type: 'varchar', length: 16, default: 'File' })
  type: string;

  /** SHA-256 (lower-case hex) of the current file, NULL without content (kept by the content area). */
  @Column({ name: 'content_sha256', type: 'varchar', length: 64, nullable: true })
  contentSha256: string | null;

  @Column({ name: 'asset_type_id', type: 'integer', nullable: true })
  assetTypeId: number | null;

  @Column({ name: 'added_by_user_id', type: 'integer', nullable: true })
  addedByUserId: number | null;

  @Column({ name: 'created_at', type: 'datetime' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'datetime' })
  updatedAt: Date;

  /** Raised by every write of the asset (see `AssetWritesRepository.touch`); the ETag starts with it. */
  @Column({ type: 'integer', default: 1 })
  version: number;

  /**
   * Its set of levels (`asset_level_sets`), given on insert and kept by AssetTalliesRepository; never read
   * through the entity.
   */
  @Column({ name: 'level_set_id', type: 'integer', nullable: true, select: false, update: false })
  levelSetId?: number | null;
}
