import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A node of the keyword tree of one keywords-type attribute. */
@Entity('keywords')
export class KeywordEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'attribute_id', type: 'integer' })
  attributeId: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ name: 'parent_id', type: 'integer', nullable: true })
  parentId: number | null;

  /** parent_id or 0, so that the unique key (attribute, parent, name) also covers top-level keywords. */
  @Column({ name: 'parent_key', type: 'integer', default: 0 })
  parentKey: number;

  @Column({ name: 'created_at', type: 'datetime' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'datetime' })
  updatedAt: Date;
}
