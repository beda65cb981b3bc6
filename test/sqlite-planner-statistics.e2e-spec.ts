import { DataSource } from 'typeorm';
import { applyPlannerStatistics, REFERENCE_STATISTICS } from '@dam/assets';
import { AppConfig } from '@dam/core';
import { dataSourceOptions, runMigrations } from '@dam/database';
import { MIGRATIONS } from '@dam/migrations';
import { createTestDatabase, TestDatabase } from './helpers/databases';

type Stat = { tbl: string; idx: string; stat: string };

/**
 * The embedded SQLite database gets the search tables' reference statistics when it has none (the
 * planner's view of a large library), and keeps an operator's own. Runs on SQLite in either matrix.
 */
describe('SQLite planner statistics', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  const stats = async (): Promise<Stat[]> =>
    dataSource.query('SELECT tbl, idx, stat FROM sqlite_stat1 ORDER BY tbl, idx');
  const plan = async (sql: string): Promise<string> =>
    ((await dataSource.query(`EXPLAIN QUERY PLAN ${sql}`)) as Array<{ detail: string }>)
      .map((row) => row.detail)
      .join(' | ');

  beforeEach(async () => {
    database = await createTestDatabase('sqlite');
    const config = AppConfig.fromEnv({ DAM_DATA_DIR: database.dataDir });
    dataSource = await new DataSource(dataSourceOptions(config, MIGRATIONS)).initialize();
    await runMigrations(dataSource);
  });

  afterEach(async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
    await database?.drop();
  });

  it('writes every reference row on a fresh database, each naming an index the migrations made, once', async () => {
    const indexes: Array<{ name: string }> = await dataSource.query(
      "SELECT name FROM sqlite_master WHERE type = 'index'",
    );
    const names = new Set(indexes.map((row) => row.name));
    for (const [table, index] of REFERENCE_STATISTICS)
      expect({ table, index, exists: names.has(index) }).toEqual({ table, index, exists: true });

    expect(await applyPlannerStatistics(dataSource)).toBe(REFERENCE_STATISTICS.length);
    const written = (await stats()).filter((row) => row.tbl !== 'cache_generations');
    expect(written.map((row) => [row.tbl, row.idx, row.stat]).sort()).toEqual(
      REFERENCE_STATISTICS.map((row) => [...row]).sort(),
    );
    expect(await applyPlannerStatistics(dataSource)).toBe(0);
  });

  it('has the planner use them at once: an AND of words reads the token index by token, not by asset', async () => {
    // Without statistics SQLite takes the (asset_id, token) index for the prefix's range and probes it per
    // asset of the whole table; with them, each word is a range of the token index.
    const sql =
      'SELECT a.id FROM assets a WHERE a.id IN (SELECT t.asset_id FROM asset_search_tokens t WHERE t.token = ?) ' +
      "AND a.id IN (SELECT t.asset_id FROM asset_search_tokens t WHERE t.token >= 'nuba' AND t.token < 'nubb') AND a.submitted = 1";
    const before = await plan(sql.replace('?', "'misoba'"));
    await applyPlannerStatistics(dataSource);
    const after = await plan(sql.replace('?', "'misoba'"));
    expect(after).toMatch(
      /SEARCH t USING COVERING INDEX sqlite_autoindex_asset_search_tokens_1 \(token=\?\)/,
    );
    expect(after).toMatch(
      /SEARCH t USING COVERING INDEX sqlite_autoindex_asset_search_tokens_1 \(token>\? AND token<\?\)/,
    );
    expect(after).not.toEqual(before);
  });

  it('leaves a table the operator analysed with its own statistics, and fills the others', async () => {
    // What ANALYZE writes for the table (an empty one gets no row, so the row is written as it would be).
    await dataSource.query('ANALYZE "asset_categories"');
    await dataSource.query(
      "INSERT INTO sqlite_stat1 VALUES ('asset_categories', 'IDX_45a999c40e7c0b076f8f668214', '42 7 1')",
    );
    const own = (await stats()).filter((row) => row.tbl === 'asset_categories');
    expect(own).toHaveLength(1);
    const written = await applyPlannerStatistics(dataSource);
    expect(written).toBe(REFERENCE_STATISTICS.filter(([table]) => table !== 'asset_categories').length);
    expect((await stats()).filter((row) => row.tbl === 'asset_categories')).toEqual(own);
  });
});
