import { DataSource } from 'typeorm';
import { ensureSqliteStatTable } from '@dam/database';

/**
 * The statistics SQLite's planner reads (`sqlite_stat1`: per index, its rows, then the average rows per
 * value of each prefix of its columns), for the search tables of a reference library: the 1,000,000
 * assets of the search benchmark (bench/results/asset-search.md), as its full ANALYZE measured them, with
 * the uploader and the dates set to what a real library holds (the benchmark has one uploader and
 * coarse times).
 *
 * Why: SQLite plans by these statistics, and only ANALYZE writes them. A library grown through the API
 * has none, and the planner's guesses then pick poor plans at scale (at 1M without statistics: the AND
 * of a word and a prefix 4.5 s against 0.13 s, a keyword 180 ms against 39 ms, a category with its
 * descendants 158 ms against 31 ms). The service does not run ANALYZE itself: a full one holds the
 * single connection for its whole run, and a sampled one (`analysis_limit`) misled the planner (the same
 * AND: 7.9 s). Writing the rows is SQLite's documented manual control of query plans; the averages are
 * ratios of the data's shape, so the same plans serve a library of any size (a small one is fast with
 * any plan).
 */
export const REFERENCE_STATISTICS: ReadonlyArray<readonly [table: string, index: string, stat: string]> = [
  ['assets', 'IDX_f7028db812e41491d1e4407324', '1000000 500000 333334'], // (submitted, upload_pending)
  ['assets', 'IDX_3201fc2d842fc5ed777bf1582e', '1000000 1000'], // (added_by_user_id)
  ['assets', 'IDX_assets_created_at_id', '1000000 2 1'],
  ['assets', 'IDX_assets_updated_at_id', '1000000 2 1'],
  ['asset_search_tokens', 'sqlite_autoindex_asset_search_tokens_1', '20796853 21 1 1'], // (token, asset, attribute)
  ['asset_search_tokens', 'IDX_asset_search_tokens_asset_token', '20796853 21 1'],
  ['asset_search_tokens', 'IDX_a5fdd37d4cfbd16b4b37227368', '20796853 2079686'], // (attribute_id)
  ['asset_access_levels', 'sqlite_autoindex_asset_access_levels_1', '1000000 1 1'], // (asset, level)
  ['asset_access_levels', 'IDX_02de3342b96b5a2329c291587c', '1000000 50000 1'], // (level, asset)
  ['asset_categories', 'sqlite_autoindex_asset_categories_1', '1000000 1 1'], // (asset, category)
  ['asset_categories', 'IDX_45a999c40e7c0b076f8f668214', '1000000 5000 1'], // (category, asset)
  ['asset_attribute_values', 'sqlite_autoindex_asset_attribute_values_1', '10000000 10 1 1'],
  ['asset_attribute_values', 'IDX_4f4b56492874d37efeeb88c00e', '10000000 1000000'], // (attribute_id)
];

/**
 * On SQLite, gives each search table that has no statistics the reference ones (REFERENCE_STATISTICS), and has the
 * planner read them. A table with statistics of its own (an operator's ANALYZE) keeps them. Returns the
 * number of rows written (none on MySQL, which keeps its own statistics as it writes).
 */
export async function applyPlannerStatistics(dataSource: DataSource): Promise<number> {
  if (dataSource.options.type !== 'better-sqlite3') return 0;
  const tables = [...new Set(REFERENCE_STATISTICS.map(([table]) => table))];
  const list = tables.map(() => '?').join(', ');
  const indexes: Array<{ name: string }> = await dataSource.query(
    `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN (${list})`,
    tables,
  );
  const existing = new Set(indexes.map((row) => row.name));
  return dataSource.transaction(async (manager) => {
    await ensureSqliteStatTable(manager);
    const analysed: Array<{ tbl: string }> = await manager.query(
      `SELECT DISTINCT tbl FROM sqlite_stat1 WHERE tbl IN (${list})`,
      tables,
    );
    const own = new Set(analysed.map((row) => row.tbl));
    const rows = REFERENCE_STATISTICS.filter(([table, index]) => !own.has(table) && existing.has(index));
    for (const row of rows)
      await manager.query('INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (?, ?, ?)', [...row]);
    // The planner reads sqlite_stat1 when it loads the schema: have it read them again now.
    if (rows.length > 0) await manager.query('ANALYZE sqlite_schema');
    return rows.length;
  });
}
