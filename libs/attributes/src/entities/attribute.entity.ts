import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** An attribute; `label` is in the default language (others live in `translations`, type `attribute`). */
@Entity('attributes')
export class AttributeEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 255 })
  label: string;

  @Column({ name: 'static_name', type: 'varchar', length: 64, nullable: true })
  staticName: string | null;

  @Column({ name: 'type_id', type: 'integer' })
  typeId: number;

  @Column({ name: 'is_system', type: 'boolean', default: false })
  isSystem: boolean;

  @Column({ name: 'is_read_only', type: 'boolean', default: false })
  isReadOnly: boolean;

  @Column({ name: 'is_keyword_searchable', type: 'boolean', default: false })
  isKeywordSearchable: boolean;

  @Column({ name: 'display_order', type: 'integer', default: 0 })
  displayOrder: number;

  @Column({ name: 'created_at', type: 'datetime' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'datetime' })
  updatedAt: Date;
}
