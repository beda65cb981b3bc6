import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Maps one embedded metadata tag (EXIF, IPTC or XMP) to an attribute. */
@Entity('embedded_data_mappings')
export class EmbeddedDataMappingEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 8 })
  type: string;

  @Column({ name: 'tag_name', type: 'varchar', length: 255 })
  tagName: string;

  @Column({ name: 'display_name', type: 'varchar', length: 255 })
  displayName: string;

  @Column({ name: 'mapping_direction', type: 'varchar', length: 32 })
  mappingDirection: string;

  @Column({ name: 'attribute_id', type: 'integer' })
  attributeId: number;

  @Column({ name: 'created_at', type: 'datetime' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'datetime' })
  updatedAt: Date;
}
