import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { CacheGenerations, refuseForeignKeyViolations } from '@dam/database';
import { DataSource, EntityManager } from 'typeorm';

/** Work done in a group write's transaction (its events), given the group before and after (undefined: none). */
export type GroupChanged = (
  manager: EntityManager,
  before: GroupView | undefined,
  after: GroupView | undefined,
) => Promise<void>;
import { isPermission } from '../permissions/permission';
import { GroupPermissionRow } from '../permissions/permission-tree';
import { GroupEntity } from '../users/entities/group.entity';
import { ACCESS_GENERATION } from '../users/users.repository';
import { GroupPermissionEntity } from './entities/group-permission.entity';

/** Said when an access level named in the permissions is deleted between the check and the write. */
const LEVEL_GONE = 'an access level named in the permissions no longer exists';

/** A group with every permission it holds. */
export interface GroupView {
  id: number;
  name: string;
  permissions: GroupPermissionRow[];
}

/** All TypeORM access for groups and their permissions. Multi-row writes run in one transaction. */
@Injectable()
export class GroupsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly generations: CacheGenerations,
  ) {}

  async listIds(page?: { offset: number; limit: number }): Promise<{ ids: number[]; total: number }> {
    const [rows, total] = await this.dataSource.getRepository(GroupEntity).findAndCount({
      select: { id: true },
      order: { id: 'ASC' },
      skip: page?.offset,
      take: page?.limit,
    });
    return { ids: rows.map((row) => row.id), total };
  }

  async findById(id: number, manager: EntityManager = this.dataSource.manager): Promise<GroupView | null> {
    const group = await manager.getRepository(GroupEntity).findOneBy({ id });
    if (group === null) return null;
    const rows = await manager.getRepository(GroupPermissionEntity).find({
      where: { groupId: id },
      order: { accessLevelId: 'ASC' },
    });
    const permissions: GroupPermissionRow[] = [];
    for (const row of rows) {
      if (isPermission(row.permission))
        permissions.push({ accessLevelId: row.accessLevelId, permission: row.permission });
    }
    return { id: group.id, name: group.name, permissions };
  }

  async create(name: string, permissions: GroupPermissionRow[], changed: GroupChanged): Promise<GroupView> {
    return refuseForeignKeyViolations(LEVEL_GONE, () =>
      this.dataSource.transaction(async (manager) => {
        const group = await manager.getRepository(GroupEntity).save({ name, createdAt: new Date() });
        await this.insertPermissions(manager, group.id, permissions);
        await this.generations.bump(ACCESS_GENERATION, manager);
        const view = { id: group.id, name: group.name, permissions };
        await changed(manager, undefined, view);
        return view;
      }),
    );
  }

  /** Changes the name and/or replaces every permission, atomically. Null when the group does not exist. */
  async update(
    id: number,
    name: string | undefined,
    permissions: GroupPermissionRow[] | undefined,
    changed: GroupChanged,
  ): Promise<GroupView | null> {
    return refuseForeignKeyViolations(LEVEL_GONE, () =>
      this.dataSource.transaction(async (manager) => {
        const groups = manager.getRepository(GroupEntity);
        const before = await this.findById(id, manager);
        if (before === null) return null;
        if (name !== undefined) await groups.update({ id }, { name });
        if (permissions !== undefined) {
          await manager.getRepository(GroupPermissionEntity).delete({ groupId: id });
          await this.insertPermissions(manager, id, permissions);
        }
        const group = await this.findById(id, manager);
        await this.generations.bump(ACCESS_GENERATION, manager);
        await changed(manager, before, group ?? undefined);
        return group;
      }),
    );
  }

  /** Removes the group; its permissions and memberships go with it (foreign keys cascade). */
  async delete(id: number, changed: GroupChanged): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const before = await this.findById(id, manager);
      if (before === null) return false;
      await manager.getRepository(GroupPermissionEntity).delete({ groupId: id });
      await manager.query('DELETE FROM user_groups WHERE group_id = ?', [id]);
      await manager.getRepository(GroupEntity).delete({ id });
      await this.generations.bump(ACCESS_GENERATION, manager);
      await changed(manager, before, undefined);
      return true;
    });
  }

  private async insertPermissions(
    manager: EntityManager,
    groupId: number,
    rows: GroupPermissionRow[],
  ): Promise<void> {
    if (rows.length === 0) return;
    await manager
      .getRepository(GroupPermissionEntity)
      .insert(rows.map((row) => ({ groupId, accessLevelId: row.accessLevelId, permission: row.permission })));
  }
}
