import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('list_attribute_values')
export class ListAttributeValueEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'attribute_id', type: 'integer' })
  attributeId: number;

  @Column({ type: 'varchar', length: 255 })
  value: string;

  @Column({ name: 'additional_value', type: 'varchar', length: 255, nullable: true })
  additionalValue: string | null;

  @Column({ name: 'created_at', type: 'datetime' })
  createdAt: Date;
}
