import { NamedTreeNodeColumns } from '@dam/database';
import { Column, Entity } from 'typeorm';

/** One access level (spec 2.1). Name and description here are the default language's texts. */
@Entity('access_levels')
export class AccessLevelEntity extends NamedTreeNodeColumns {
  @Column({ name: 'is_always_assignable', type: 'boolean', default: false })
  isAlwaysAssignable: boolean;

  @Column({ name: 'has_permissions', type: 'boolean', default: false })
  hasPermissions: boolean;

  @Column({ name: 'is_selected_on_load', type: 'boolean', default: false })
  isSelectedOnLoad: boolean;

  @Column({ name: 'is_browsable', type: 'boolean', default: true })
  isBrowsable: boolean;

  @Column({ name: 'show_promoted_items', type: 'boolean', default: false })
  showPromotedItems: boolean;

  @Column({ name: 'show_recent_items', type: 'boolean', default: false })
  showRecentItems: boolean;

  @Column({ name: 'is_static', type: 'boolean', default: false })
  isStatic: boolean;

  /** Object storage key of the image (`access-level-images/{id}/{uuid}`), never a client-supplied name. */
  @Column({ name: 'image_key', type: 'varchar', length: 255, nullable: true })
  imageKey: string | null;

  @Column({ name: 'image_filename', type: 'varchar', length: 255, nullable: true })
  imageFilename: string | null;

  @Column({ name: 'image_content_type', type: 'varchar', length: 100, nullable: true })
  imageContentType: string | null;

  @Column({ name: 'created_at', type: 'datetime' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'datetime' })
  updatedAt: Date;
}
