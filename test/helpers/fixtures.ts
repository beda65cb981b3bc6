import { DataSource } from 'typeorm';
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
  const ids: number[] = [];
  await dataSource.transaction(async (manager) => {
    for (const fixture of fixtures) {
      const now = new Date();
      const result = await manager
        .createQueryBuilder()
        .insert()
        .into('assets')
        .values({
          submitted: fixture.submitted ?? true,
          upload_pending: fixture.uploadPending ?? false,
          archived: false,
          type: 'File',
          added_by_user_id: fixture.addedByUserId ?? null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      const id = Number(result.identifiers[0]?.id ?? result.raw.insertId ?? result.raw);
      ids.push(id);
      for (const levelId of fixture.accessLevelIds) {
        await manager.query('INSERT INTO asset_access_levels (asset_id, access_level_id) VALUES (?, ?)', [id, levelId]);
      }
      for (const categoryId of fixture.categoryIds ?? []) {
        await manager.query('INSERT INTO asset_categories (asset_id, category_id) VALUES (?, ?)', [id, categoryId]);
      }
    }
  });
  return ids;
}
