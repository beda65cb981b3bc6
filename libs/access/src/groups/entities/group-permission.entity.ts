import { Entity, PrimaryColumn } from 'typeorm';

/** One permission a group holds on one access level (DESIGN §5). */
@Entity('group_permissions')
export class GroupPermissionEntity {
  @PrimaryColumn({ name: 'group_id', type: 'integer' })
  groupId: number;

  @PrimaryColumn({ name: 'access_level_id', type: 'integer' })
  accessLevelId: number;

  @PrimaryColumn({ type: 'varchar', length: 32 })
  permission: string;
}
