import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { bumpGenerations } from './cache-generations';
import { TestApp } from './test-app';

/**
 * Rows the asset specs need from areas they do not test (access levels, categories, groups and their
 * permissions), inserted straight into the database so the asset specs do not depend on those APIs.
 */
export interface LevelFixture {
  name?: string;
  parentId?: number | null;
  isAlwaysAssignable?: boolean;
  hasPermissions?: boolean;
}

export async function insertAccessLevel(t: TestApp, fixture: LevelFixture = {}): Promise<number> {
  const id = await insertRow(t, 'access_levels', {
    name: fixture.name ?? `level-${randomBytes(3).toString('hex')}`,
    description: null,
    parent_id: fixture.parentId ?? null,
    is_always_assignable: fixture.isAlwaysAssignable ?? false,
    has_permissions: fixture.hasPermissions ?? (fixture.parentId ?? null) === null,
    is_selected_on_load: false,
    is_browsable: true,
    show_promoted_items: false,
    show_recent_items: false,
    is_static: false,
  });
  await bumpGenerations(t, 'access-levels');
  return id;
}

export async function insertCategory(
  t: TestApp,
  name = `category-${randomBytes(3).toString('hex')}`,
): Promise<number> {
  return insertRow(t, 'categories', { name, description: null, parent_id: null });
}

/** Puts the user in a new group that holds `permissions` on each of `levelIds`. */
export async function grant(
  t: TestApp,
  userId: number,
  levelIds: number[],
  permissions: string[],
): Promise<void> {
  const dataSource = t.app.get(DataSource);
  const groupId = await insertRow(t, 'groups', { name: `group-${randomBytes(4).toString('hex')}` }, false);
  for (const levelId of levelIds) {
    for (const permission of permissions) {
      await dataSource.query(
        'INSERT INTO group_permissions (group_id, access_level_id, permission) VALUES (?, ?, ?)',
        [groupId, levelId, permission],
      );
    }
  }
  await dataSource.query('INSERT INTO user_groups (user_id, group_id) VALUES (?, ?)', [userId, groupId]);
  await bumpGenerations(t, 'access');
}

/**
 * Raw SQL: other areas map these tables to entities with property names, which the query builder would
 * prefer over column names. Names are unique, so the new row is found by its name.
 */
async function insertRow(
  t: TestApp,
  table: string,
  values: Record<string, unknown>,
  updatedAt = true,
): Promise<number> {
  const now = new Date().toISOString().slice(0, 19).replace('T', ' ');
  const row: Record<string, unknown> = {
    ...values,
    created_at: now,
    ...(updatedAt ? { updated_at: now } : {}),
  };
  const columns = Object.keys(row);
  const dataSource = t.app.get(DataSource);
  await dataSource.query(
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    Object.values(row).map((value) => (typeof value === 'boolean' ? Number(value) : value)),
  );
  const rows: Array<{ id: number | string }> = await dataSource.query(
    `SELECT id FROM ${table} WHERE name = ? ORDER BY id DESC`,
    [values.name],
  );
  return Number(rows[0].id);
}
