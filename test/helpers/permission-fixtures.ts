import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { insertedId } from './fixtures';
import { bumpGenerations } from './cache-generations';
import { TestApp } from './test-app';

/**
 * Permission set-ups written straight into the database (raw SQL, so no entity mapping gets in the
 * way), for specs that need users with some permissions without going through the groups API.
 */
export async function defaultAccessLevelId(t: TestApp): Promise<number> {
  const rows: Array<{ id: number | string }> = await t.app
    .get(DataSource)
    .query("SELECT id FROM access_levels WHERE name = 'Default' AND parent_id IS NULL ORDER BY id");
  if (rows.length === 0) throw new Error('the seeded Default access level is missing');
  return Number(rows[0].id);
}

/** A top-level access level (top levels always hold their own permissions). */
export async function insertTopAccessLevel(t: TestApp, name: string): Promise<number> {
  const now = timestamp();
  const result: unknown = await t.app
    .get(DataSource)
    .query(
      'INSERT INTO access_levels (name, parent_id, has_permissions, created_at, updated_at) VALUES (?, NULL, ?, ?, ?)',
      [name, true, now, now],
    );
  await bumpGenerations(t, 'access-levels');
  return insertedId(result);
}

/** Puts the user in a new group holding `permissions` on one access level; returns the group id. */
export async function grantPermissions(
  t: TestApp,
  userId: number,
  accessLevelId: number,
  permissions: string[],
): Promise<number> {
  const groupId = await t.app.get(DataSource).transaction(async (manager) => {
    const name = `group-${randomBytes(4).toString('hex')}`;
    const groupId = insertedId(
      await manager.query('INSERT INTO groups (name, created_at) VALUES (?, ?)', [name, timestamp()]),
    );
    for (const permission of permissions) {
      await manager.query(
        'INSERT INTO group_permissions (group_id, access_level_id, permission) VALUES (?, ?, ?)',
        [groupId, accessLevelId, permission],
      );
    }
    await manager.query('INSERT INTO user_groups (user_id, group_id) VALUES (?, ?)', [userId, groupId]);
    return groupId;
  });
  await bumpGenerations(t, 'access');
  return groupId;
}

function timestamp(): string {
  return new Date().toISOString().slice(0, 23).replace('T', ' ');
}
