import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One attribute of a display group, at a position within it. */
@Entity('display_attribute_group_attributes')
export class DisplayAttributeGroupMemberEntity {
  @PrimaryColumn({ name: 'group_id', type: 'integer' })
  groupId: number;

  @PrimaryColumn({ name: 'attribute_id', type: 'integer' })
  attributeId: number;

  @Column({ type: 'integer', default: 0 })
  position: number;
}
