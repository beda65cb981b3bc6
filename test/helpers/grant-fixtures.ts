import { DataSource } from 'typeorm';
import { bearerRequests } from './bearer-requests';
import { bumpGenerations } from './cache-generations';
import { TestApp } from './test-app';

/**
 * Access levels and permissions for specs of areas that only need "user U may P on level L": the group
 * row goes straight into the database, and membership through the users API (`groupIds`).
 */
export class Grants {
  private groupCounter = 0;

  constructor(private readonly t: TestApp) {}

  private get dataSource(): DataSource {
    return this.t.app.get(DataSource);
  }

  /** The access level named `name` at the top of the tree; created (with its own permissions) when absent. */
  async topLevel(name: string): Promise<number> {
    const find = async (): Promise<Array<{ id: number | string }>> =>
      this.dataSource.query('SELECT id FROM access_levels WHERE name = ? AND parent_id IS NULL ORDER BY id', [
        name,
      ]);
    if ((await find()).length === 0) {
      const now = new Date().toISOString().slice(0, 19).replace('T', ' ');
      await this.dataSource.query(
        'INSERT INTO access_levels (name, parent_id, has_permissions, created_at, updated_at) VALUES (?, NULL, ?, ?, ?)',
        [name, 1, now, now],
      );
      await bumpGenerations(this.t, 'access-levels');
    }
    const [row] = await find();
    return Number(row.id);
  }

  /** Makes the user a member of exactly one new group holding `permissions` on each of `levelIds`. */
  async give(userId: number, levelIds: number[], permissions: string[]): Promise<void> {
    this.groupCounter += 1;
    const group = await this.dataSource
      .getRepository<{ id: number; name: string; createdAt: Date }>('groups')
      .save({ name: `grants-${userId}-${this.groupCounter}`, createdAt: new Date() });
    for (const levelId of levelIds) {
      for (const permission of permissions) {
        await this.dataSource.query(
          'INSERT INTO group_permissions (group_id, access_level_id, permission) VALUES (?, ?, ?)',
          [group.id, levelId, permission],
        );
      }
    }
    await bearerRequests(() => this.t)
      .put(`/rest/users/${userId}`, this.t.adminToken, { groupIds: [group.id] })
      .expect(200);
  }
}
