import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { isPermission } from './permission';
import { GroupPermissionRow } from './permission-tree';

/** Raw reads of the group permissions a user holds (the level tree comes from the AccessLevelTree port). */
@Injectable()
export class PermissionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async permissionsOfUser(userId: number): Promise<GroupPermissionRow[]> {
    const rows: Array<{ access_level_id: number | string; permission: string }> = await this.dataSource.query(
      'SELECT DISTINCT gp.access_level_id, gp.permission FROM group_permissions gp ' +
        'JOIN user_groups ug ON ug.group_id = gp.group_id WHERE ug.user_id = ?',
      [userId],
    );
    const result: GroupPermissionRow[] = [];
    for (const row of rows) {
      if (isPermission(row.permission))
        result.push({ accessLevelId: Number(row.access_level_id), permission: row.permission });
    }
    return result;
  }
}
