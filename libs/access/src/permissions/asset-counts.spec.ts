import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { AccessGrants } from './access-grants';
import { countVisibleAssetsPerLevel } from './asset-counts';
import { isAssetVisible } from './asset-visibility';
import { Permission } from './permission';

/** The counting shortcut must agree with the visibility rule asset by asset, whatever the data. */
describe('countVisibleAssetsPerLevel', () => {
  let dataSource: DataSource;
  const actor = { id: 1, username: 'actor', isAdmin: false, isApplication: false };
  const LEVELS = [1, 2, 3, 4, 5];

  beforeAll(async () => {
    dataSource = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    await dataSource.query(
      'CREATE TABLE assets (id INTEGER PRIMARY KEY, submitted BOOLEAN NOT NULL, upload_pending BOOLEAN NOT NULL, added_by_user_id INTEGER)',
    );
    await dataSource.query(
      'CREATE TABLE asset_access_levels (asset_id INTEGER, access_level_id INTEGER, PRIMARY KEY (asset_id, access_level_id))',
    );
  });

  afterAll(async () => {
    await dataSource?.destroy();
  });

  const asset = fc.record({
    submitted: fc.boolean(),
    uploadPending: fc.boolean(),
    addedByUserId: fc.constantFrom(null, 1, 2),
    accessLevelIds: fc.uniqueArray(fc.constantFrom(...LEVELS), { minLength: 1, maxLength: 3 }),
  });
  const levelSet = fc.uniqueArray(fc.constantFrom(...LEVELS));

  it('equals counting the assets isAssetVisible shows, level by level', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(asset, { maxLength: 25 }),
        levelSet,
        levelSet,
        async (assets, view, approve) => {
          await dataSource.query('DELETE FROM asset_access_levels');
          await dataSource.query('DELETE FROM assets');
          for (const [index, fixture] of assets.entries()) {
            await dataSource.query('INSERT INTO assets VALUES (?, ?, ?, ?)', [
              index + 1,
              Number(fixture.submitted),
              Number(fixture.uploadPending),
              fixture.addedByUserId,
            ]);
            for (const levelId of fixture.accessLevelIds) {
              await dataSource.query('INSERT INTO asset_access_levels VALUES (?, ?)', [index + 1, levelId]);
            }
          }
          const byLevel = new Map<number, Set<Permission>>();
          for (const id of view) byLevel.set(id, new Set<Permission>(['view']));
          for (const id of approve)
            byLevel.set(id, new Set<Permission>([...(byLevel.get(id) ?? []), 'approve']));
          const grants = AccessGrants.of(byLevel, LEVELS);

          const counts = await countVisibleAssetsPerLevel(dataSource.manager, actor, grants, LEVELS);
          for (const level of LEVELS) {
            const expected = grants.has(level, 'view')
              ? assets.filter((a) => a.accessLevelIds.includes(level) && isAssetVisible(actor, grants, a))
                  .length
              : 0;
            expect(counts.get(level) ?? 0).toBe(expected);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('counts every asset for a privileged actor', async () => {
    await dataSource.query('DELETE FROM asset_access_levels');
    await dataSource.query('DELETE FROM assets');
    await dataSource.query('INSERT INTO assets VALUES (1, 0, 0, 2), (2, 1, 1, NULL)');
    await dataSource.query('INSERT INTO asset_access_levels VALUES (1, 1), (2, 1), (2, 2)');
    const counts = await countVisibleAssetsPerLevel(
      dataSource.manager,
      actor,
      AccessGrants.everything(LEVELS),
      [1, 2],
    );
    expect(Object.fromEntries(counts)).toEqual({ 1: 2, 2: 1 });
  });
});
