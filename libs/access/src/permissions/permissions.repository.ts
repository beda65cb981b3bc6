import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { isPermission } from './permission';
import { GroupPermissionRow, LevelNode } from './permission-tree';

/** Raw reads of the permission structure (access level tree and group permissions). */
@Injectable()
export class PermissionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async levelTree(): Promise<LevelNode[]> {
    const rows: Array<{
      id: number | string;
      parent_id: number | string | null;
      has_permissions: number | boolean;
    }> = await this.dataSource.query('SELECT id, parent_id, has_permissions FROM access_levels');
    return rows.map((row) => ({
      id: Number(row.id),
      parentId: row.parent_id === null ? null : Number(row.parent_id),
      hasPermissions: Boolean(Number(row.has_permissions)),
    }));
  }

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
