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
  await recountSets(query, mysql, LEVEL_SETS);
  await query('DELETE FROM asset_tallies');
  await query(
    'INSERT INTO asset_tallies (level_set_id, submitted, upload_pending, assets) ' +
      'SELECT a.level_set_id, a.submitted, a.upload_pending, COUNT(*) FROM assets a ' +
      'GROUP BY a.level_set_id, a.submitted, a.upload_pending',
  );
  const [row] = (await query('SELECT COUNT(*) AS n FROM asset_tallies')) as Array<{ n: unknown }>;
  return Number(row.n);
}

/** A table of distinct sets of one kind of link, and the asset column that names each asset's set. */
export interface SetKind {
  sets: string;
  key: string;
  ids: string;
  links: string;
  link: string;
  column: string;
  /** Whether an asset without links has no set (NULL) rather than the empty one. */
  emptyIsNone: boolean;
}

export const LEVEL_SETS: SetKind = {
  sets: 'asset_level_sets',
  key: 'level_key',
  ids: 'level_ids',
  links: 'asset_access_levels',
  link: 'access_level_id',
  column: 'level_set_id',
  emptyIsNone: false,
};

export const CATEGORY_SETS: SetKind = {
  sets: 'asset_category_sets',
  key: 'category_key',
  ids: 'category_ids',
  links: 'asset_categories',
  link: 'category_id',
  column: 'category_set_id',
  emptyIsNone: true,
};

/**
 * Names each asset's set (`kind.column`), inserting the sets not yet known. Returns the sets inserted.
 * Run it in a transaction.
 */
async function recountSets(query: RunQuery, mysql: boolean, kind: SetKind): Promise<number[][]> {
  if (mysql) await query('SET SESSION group_concat_max_len = 1048576');
  // Each asset's ids as one ordered list (`idSetText`): '' for none, or NULL when that means no set.
  const concat = mysql
    ? `SELECT GROUP_CONCAT(l.${kind.link} ORDER BY l.${kind.link} SEPARATOR ',') FROM ${kind.links} l WHERE l.asset_id = a.id`
    : `SELECT group_concat(l.${kind.link}, ',' ORDER BY l.${kind.link}) FROM ${kind.links} l WHERE l.asset_id = a.id`;
  const list = kind.emptyIsNone ? `(${concat})` : `COALESCE((${concat}), '')`;
  const present = (await query(`SELECT DISTINCT ${list} AS ids FROM assets a`)) as Array<{
    ids: string | null;
  }>;
  const known = new Set(
    ((await query(`SELECT ${kind.key} AS set_key FROM ${kind.sets}`)) as Array<{ set_key: string }>).map(
      (row) => row.set_key,
    ),
  );
  const missing = present
    .filter((row) => !(kind.emptyIsNone && row.ids === null))
    .map((row) => parseIdSetText(String(row.ids ?? '')))
    .filter((ids) => !known.has(idSetKey(ids)));
  for (let start = 0; start < missing.length; start += BATCH) {
    const batch = missing.slice(start, start + BATCH);
    await query(
      `INSERT INTO ${kind.sets} (${kind.key}, ${kind.ids}) VALUES ` + batch.map(() => '(?, ?)').join(', '),
      batch.flatMap((ids) => [idSetKey(ids), idSetText(ids)]),
    );
  }
  // MySQL finds each asset's set by its key (SHA1 of the list, indexed); SQLite has no SHA1 and matches the
  // list itself, through an index that lives as long as this fill.
  if (mysql) {
    await query(
      `UPDATE assets a SET a.${kind.column} = (SELECT s.id FROM ${kind.sets} s WHERE s.${kind.key} = SHA1(${list}))`,
    );
  } else {
    const index = `fill_${kind.sets}_ids`;
    await query(`CREATE INDEX IF NOT EXISTS "${index}" ON "${kind.sets}" ("${kind.ids}")`);
    await query(
      `UPDATE assets AS a SET ${kind.column} = (SELECT s.id FROM ${kind.sets} s WHERE s.${kind.ids} = ${list})`,
    );
    await query(`DROP INDEX "${index}"`);
  }
  return missing;
}

/**
 * Recomputes, from `asset_categories`, every asset's `category_set_id` (NULL when it is in no category),
 * inserting the sets not yet in `asset_category_sets` with their members. The migration that created
 * the tables fills them with it, and the rebuild-search-index job repairs them with it
 * (AssetTalliesRepository.rebuild). Run it in a transaction.
 */
export async function recountAssetCategorySets(query: RunQuery, mysql: boolean): Promise<void> {
  const inserted = await recountSets(query, mysql, CATEGORY_SETS);
  for (let start = 0; start < inserted.length; start += BATCH) {
    const batch = inserted.slice(start, start + BATCH);
    const keys = batch.map((ids) => idSetKey(ids));
    const rows = (await query(
      `SELECT id, category_key FROM asset_category_sets WHERE category_key IN (${keys.map(() => '?').join(', ')})`,
      keys,
    )) as Array<{ id: unknown; category_key: string }>;
    const idOf = new Map(rows.map((row) => [row.category_key, Number(row.id)]));
    const members = batch.flatMap((ids) => ids.map((categoryId) => [idOf.get(idSetKey(ids)), categoryId]));
    for (let at = 0; at < members.length; at += BATCH) {
      const chunk = members.slice(at, at + BATCH);
      await query(
        'INSERT INTO asset_category_set_members (set_id, category_id) VALUES ' +
          chunk.map(() => '(?, ?)').join(', '),
        chunk.flat(),
      );
    }
  }
}

/**
 * The facets counted per set of levels and state beside `asset_tallies`, so that the facets of a search
 * with no condition but visibility add up a few thousand rows instead of grouping every asset: each names
 * its table and the value it counts assets by (`facetValueSql` says how it is read from the assets).
 */
export const FACET_TALLIES = {
  category: { table: 'asset_category_tallies', column: 'category_id' },
  addedYear: { table: 'asset_year_tallies', column: 'year' },
  assetType: { table: 'asset_type_tallies', column: 'type_key' },
} as const;

export type TalliedFacet = keyof typeof FACET_TALLIES;

/** Every tallied facet, in the order writers lock their tables. */
export const TALLIED_FACETS = Object.keys(FACET_TALLIES) as TalliedFacet[];

/** The year an asset was added, as both the facet and its tallies compute it from `created_at`. */
export function addedYearSql(alias: string, mysql: boolean): string {
  return mysql ? `YEAR(${alias}.created_at)` : `CAST(strftime('%Y', ${alias}.created_at) AS INTEGER)`;
}

/**
 * The types from the content (`assets.type`) an asset without an asset type counts as, in the order of
 * their keys: -1 is File, -2 Image, and so on. The type facet and filter read an asset by its asset type
 * when it has one, else by this name (the `assetTypeId` filter matches both); the tallies keep both in
 * one integer, `assetTypeKey`.
 */
const CONTENT_TYPES = ['File', 'Image', 'Video', 'Audio'] as const;

/** The tallies' key of an asset's type: its asset type's id, or its content type's negative key. */
export function assetTypeKey(assetTypeId: number | null, contentType: string): number {
  if (assetTypeId !== null) return assetTypeId;
  const index = CONTENT_TYPES.indexOf(contentType as (typeof CONTENT_TYPES)[number]);
  return -(Math.max(index, 0) + 1); // a name the content never gives (it gives one of the four): File
}

/** The value the type facet shows for a key of the tallies: the asset type's id, or the content type. */
export function assetTypeOfKey(key: number): number | string {
  return key > 0 ? key : CONTENT_TYPES[-key - 1];
}

/** `assetTypeKey` in SQL, of the asset row `alias`. */
export function assetTypeKeySql(alias: string): string {
  const names = CONTENT_TYPES.slice(1).map((name, i) => `WHEN '${name}' THEN ${-(i + 2)}`);
  return `COALESCE(${alias}.asset_type_id, CASE ${alias}.type ${names.join(' ')} ELSE -1 END)`;
}

/** The columns `facetValuesOf` reads, of the asset row `alias`. */
export function facetColumnsSql(alias: string, mysql: boolean): string {
  return `${addedYearSql(alias, mysql)} AS added_year, ${alias}.asset_type_id, ${alias}.type`;
}

/** The values of each tallied facet of an asset: its row's `facetColumnsSql`, and its categories. */
export function facetValuesOf(
  row: Record<string, unknown>,
  categoryIds: number[],
): Record<TalliedFacet, number[]> {
  const typeId =
    row.asset_type_id === null || row.asset_type_id === undefined ? null : Number(row.asset_type_id);
  return {
    category: categoryIds,
    addedYear: [Number(row.added_year)],
    assetType: [assetTypeKey(typeId, String(row.type))],
  };
}

/**
 * How a recount reads each tallied facet's values from the asset row `a`: a join (the categories, one
 * row per category) and the value.
 */
export function facetValueSql(facet: TalliedFacet, mysql: boolean): { join: string; value: string } {
  switch (facet) {
    case 'category':
      return { join: ' JOIN asset_categories c ON c.asset_id = a.id', value: 'c.category_id' };
    case 'addedYear':
      return { join: '', value: addedYearSql('a', mysql) };
    case 'assetType':
      return { join: '', value: assetTypeKeySql('a') };
  }
}

/**
 * Recomputes the FACET_TALLIES tables (`facets`: all of them unless the migration that created some
 * names those) from the assets (their `level_set_id` already recounted): the migrations that created
 * them fill them with it, and the rebuild-search-index job repairs them with it
 * (AssetTalliesRepository.rebuild). Run it in a transaction.
 */
export async function recountAssetFacetTallies(
  query: RunQuery,
  mysql: boolean,
  facets: readonly TalliedFacet[] = TALLIED_FACETS,
): Promise<void> {
  const state = 'a.level_set_id, a.submitted, a.upload_pending';
  for (const facet of facets) {
    const { table, column } = FACET_TALLIES[facet];
    const { join, value } = facetValueSql(facet, mysql);
    await query(`DELETE FROM ${table}`);
    await query(
      `INSERT INTO ${table} (level_set_id, submitted, upload_pending, ${column}, assets) ` +
        `SELECT ${state}, ${value}, COUNT(*) FROM assets a${join} ` +
        `WHERE a.level_set_id IS NOT NULL GROUP BY ${state}, ${value}`,
    );
  }
}
