import { DataSource } from 'typeorm';
import { recountAssetCategorySets, recountAssetLevelSets } from '@dam/assets';
import { TestApp } from './test-app';

export interface AssetFixture {
  accessLevelIds: number[];
  categoryIds?: number[];
  submitted?: boolean;
  uploadPending?: boolean;
  addedByUserId?: number | null;
}

/**
 * Inserts asset rows straight into the database, for tests of areas that only count or filter assets
 * (access-level and category counts). Tests of assets themselves create them through the API.
 */
export async function insertAssets(t: TestApp, fixtures: AssetFixture[]): Promise<number[]> {
  const dataSource = t.app.get(DataSource);
  const mysql = dataSource.options.type !== 'better-sqlite3';
  const ids: number[] = [];
  await dataSource.transaction(async (manager) => {
    for (const fixture of fixtures) {
      // Raw SQL: an entity mapped to `assets` would make a query builder expect property names.
      const now = new Date().toISOString().slice(0, 23).replace('T', ' ');
      const inserted: unknown = await manager.query(
        'INSERT INTO assets (submitted, upload_pending, archived, type, added_by_user_id, created_at, updated_at) ' +
          "VALUES (?, ?, ?, 'File', ?, ?, ?)",
        [
          fixture.submitted ?? true,
          fixture.uploadPending ?? false,
          false,
          fixture.addedByUserId ?? null,
          now,
          now,
        ],
      );
      const id = insertedId(inserted);
      ids.push(id);
      for (const levelId of fixture.accessLevelIds) {
        await manager.query('INSERT INTO asset_access_levels (asset_id, access_level_id) VALUES (?, ?)', [
          id,
          levelId,
        ]);
      }
      for (const categoryId of fixture.categoryIds ?? []) {
        await manager.query('INSERT INTO asset_categories (asset_id, category_id) VALUES (?, ?)', [
          id,
          categoryId,
        ]);
      }
    }
    // Each asset's sets of levels and of categories and the tallies, recounted as the rebuild job does.
    const query = (sql: string, parameters?: unknown[]) => manager.query(sql, parameters);
    await recountAssetLevelSets(query, mysql);
    await recountAssetCategorySets(query, mysql);
  });
  return ids;
}

/** The id of the row an INSERT run through `query()` created: a number on SQLite, `insertId` on MySQL. */
export function insertedId(result: unknown): number {
  if (typeof result === 'number' || typeof result === 'bigint') return Number(result);
  const id = Number((result as { insertId?: unknown } | null)?.insertId);
  if (!Number.isSafeInteger(id) || id <= 0) throw new Error('the INSERT reported no id');
  return id;
}
