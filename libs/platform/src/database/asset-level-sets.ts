import { idSetKey, idSetText, parseIdSetText } from './id-set-key';

/** Runs one statement (a QueryRunner's or an EntityManager's `query`). */
export type RunQuery = (sql: string, parameters?: unknown[]) => Promise<unknown>;

/** Rows per INSERT of level sets. */
const BATCH = 500;

/**
 * Recomputes, from `asset_access_levels`, every asset's `level_set_id` (inserting the sets not yet in
 * `asset_level_sets`) and then every row of `asset_tallies`. The migration that created these tables
 * fills them with it from an existing library, and the rebuild-search-index job repairs them with it
 * (AssetTalliesRepository.rebuild, owner of the tables): one home for the fill. Run it in a transaction.
 * Returns the number of tally rows.
 */
export async function recountAssetLevelSets(query: RunQuery, mysql: boolean): Promise<number> {
  if (mysql) await query('SET SESSION group_concat_max_len = 1048576');
  // Each asset's levels as one ordered list (`idSetText`), '' for none.
  const levels = mysql
    ? "COALESCE((SELECT GROUP_CONCAT(l.access_level_id ORDER BY l.access_level_id SEPARATOR ',') " +
      "FROM asset_access_levels l WHERE l.asset_id = a.id), '')"
    : "COALESCE((SELECT group_concat(l.access_level_id, ',' ORDER BY l.access_level_id) " +
      "FROM asset_access_levels l WHERE l.asset_id = a.id), '')";
  const present = (await query(`SELECT DISTINCT ${levels} AS level_ids FROM assets a`)) as Array<{
    level_ids: string | null;
  }>;
  const known = new Set(
    ((await query('SELECT level_key FROM asset_level_sets')) as Array<{ level_key: string }>).map(
      (row) => row.level_key,
    ),
  );
  const missing = present
    .map((row) => parseIdSetText(String(row.level_ids ?? '')))
    .filter((ids) => !known.has(idSetKey(ids)));
  for (let start = 0; start < missing.length; start += BATCH) {
    const batch = missing.slice(start, start + BATCH);
    await query(
      'INSERT INTO asset_level_sets (level_key, level_ids) VALUES ' + batch.map(() => '(?, ?)').join(', '),
      batch.flatMap((ids) => [idSetKey(ids), idSetText(ids)]),
    );
  }
  // MySQL finds each asset's set by its key (SHA1 of the list, indexed); SQLite has no SHA1 and matches the
  // list itself, through an index that lives as long as this fill.
  if (mysql) {
    await query(
      `UPDATE assets a SET a.level_set_id = (SELECT s.id FROM asset_level_sets s WHERE s.level_key = SHA1(${levels}))`,
    );
  } else {
    await query('CREATE INDEX IF NOT EXISTS "fill_asset_level_sets_ids" ON "asset_level_sets" ("level_ids")');
    await query(
      `UPDATE assets AS a SET level_set_id = (SELECT s.id FROM asset_level_sets s WHERE s.level_ids = ${levels})`,
    );
    await query('DROP INDEX "fill_asset_level_sets_ids"');
  }
  await query('DELETE FROM asset_tallies');
  await query(
    'INSERT INTO asset_tallies (level_set_id, submitted, upload_pending, assets) ' +
      'SELECT a.level_set_id, a.submitted, a.upload_pending, COUNT(*) FROM assets a ' +
      'GROUP BY a.level_set_id, a.submitted, a.upload_pending',
  );
  const [row] = (await query('SELECT COUNT(*) AS n FROM asset_tallies')) as Array<{ n: unknown }>;
  return Number(row.n);
}

/**
 * The facets counted per set of levels and state beside `asset_tallies`, so that the facets of a search
 * with no condition but visibility add up a few thousand rows instead of grouping every asset: each names
 * its table and the value it counts assets by (`alias` is the asset row, `asset_categories` joined as `c`).
 */
export const FACET_TALLIES = {
  category: { table: 'asset_category_tallies', column: 'category_id' },
  addedYear: { table: 'asset_year_tallies', column: 'year' },
} as const;

export type TalliedFacet = keyof typeof FACET_TALLIES;

/** The year an asset was added, as both the facet and its tallies compute it from `created_at`. */
export function addedYearSql(alias: string, mysql: boolean): string {
  return mysql ? `YEAR(${alias}.created_at)` : `CAST(strftime('%Y', ${alias}.created_at) AS INTEGER)`;
}

/**
 * Recomputes `asset_category_tallies` and `asset_year_tallies` from the assets (their `level_set_id`
 * already recounted): the migration that created them fills them with it, and the rebuild-search-index
 * job repairs them with it (AssetTalliesRepository.rebuild). Run it in a transaction.
 */
export async function recountAssetFacetTallies(query: RunQuery, mysql: boolean): Promise<void> {
  const state = 'a.level_set_id, a.submitted, a.upload_pending';
  const { category, addedYear } = FACET_TALLIES;
  await query(`DELETE FROM ${category.table}`);
  await query(
    `INSERT INTO ${category.table} (level_set_id, submitted, upload_pending, ${category.column}, assets) ` +
      `SELECT ${state}, c.category_id, COUNT(*) FROM assets a JOIN asset_categories c ON c.asset_id = a.id ` +
      `WHERE a.level_set_id IS NOT NULL GROUP BY ${state}, c.category_id`,
  );
  const year = addedYearSql('a', mysql);
  await query(`DELETE FROM ${addedYear.table}`);
  await query(
    `INSERT INTO ${addedYear.table} (level_set_id, submitted, upload_pending, ${addedYear.column}, assets) ` +
      `SELECT ${state}, ${year}, COUNT(*) FROM assets a WHERE a.level_set_id IS NOT NULL GROUP BY ${state}, ${year}`,
  );
}
