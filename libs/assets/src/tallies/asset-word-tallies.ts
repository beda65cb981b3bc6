import { EXACT_VALUE_MARK } from '@dam/core';
import { facetValueSql, type RunQuery, TALLIED_FACETS, type TalliedFacet } from './asset-level-sets';

/**
 * `asset_word_tallies`: how many assets of each set of levels and state have a word (a token of the
 * search index that is not an exact-value token), per set of the asset's attributes that hold it
 * (`attribute_ids`, ascending ids joined by commas). A single word's total is then a sum over the rows
 * whose levels and state the viewer sees and whose attributes meet the searched (keyword-searchable)
 * ones, whatever attributes are searchable at the time: exact, without reading a row per match.
 */
export const WORD_TALLIES = 'asset_word_tallies';

/** Where a token is a word (exact-value tokens start with EXACT_VALUE_MARK), as SQL on alias `t`. */
export const WORD_TOKEN_SQL = `SUBSTR(t.token, 1, 1) <> '${EXACT_VALUE_MARK}'`;

/**
 * Recomputes every row of `asset_word_tallies` from `asset_search_tokens` and the assets (their
 * `level_set_id` already recounted): the migration that created the table fills it with it, and the
 * rebuild-search-index job repairs it with it (AssetTalliesRepository.rebuild). Run it in a transaction.
 */
export async function recountAssetWordTallies(query: RunQuery, mysql: boolean): Promise<void> {
  if (mysql) await query('SET SESSION group_concat_max_len = 1048576');
  const attributeIds = mysql
    ? "GROUP_CONCAT(t.attribute_id ORDER BY t.attribute_id SEPARATOR ',')"
    : "group_concat(t.attribute_id, ',' ORDER BY t.attribute_id)";
  await query(`DELETE FROM ${WORD_TALLIES}`);
  await query(
    `INSERT INTO ${WORD_TALLIES} (token, level_set_id, submitted, upload_pending, attribute_ids, assets) ` +
      'SELECT w.token, a.level_set_id, a.submitted, a.upload_pending, w.attribute_ids, COUNT(*) FROM (' +
      `SELECT t.token, t.asset_id, ${attributeIds} AS attribute_ids FROM asset_search_tokens t ` +
      `WHERE ${WORD_TOKEN_SQL} GROUP BY t.token, t.asset_id) w ` +
      'JOIN assets a ON a.id = w.asset_id WHERE a.level_set_id IS NOT NULL ' +
      'GROUP BY w.token, a.level_set_id, a.submitted, a.upload_pending, w.attribute_ids',
  );
}

/**
 * The word tallies again per value of each tallied facet (FACET_TALLIES: category, year added, type): how
 * many assets of each set of levels, state and attributes holding the word have this value. The facets
 * of a search for one word then add up the word's rows of each table (summed in the database, one row per
 * value back) instead of reading every match's asset row: an asset counts once per category it is in,
 * as the facet does.
 */
export const WORD_FACET_TALLIES: Record<TalliedFacet, { table: string; column: string }> = {
  category: { table: 'asset_word_category_tallies', column: 'category_id' },
  addedYear: { table: 'asset_word_year_tallies', column: 'year' },
  assetType: { table: 'asset_word_type_tallies', column: 'type_key' },
};

/**
 * Recomputes the WORD_FACET_TALLIES tables (`facets`: all of them unless the migration that created
 * some names those) from `asset_search_tokens`, `asset_categories` and the assets (their `level_set_id`
 * already recounted), as `recountAssetWordTallies` does its table: the migrations that created them fill
 * them with it, the rebuild-search-index job repairs them with it. Run it in a transaction.
 */
export async function recountAssetWordFacetTallies(
  query: RunQuery,
  mysql: boolean,
  facets: readonly TalliedFacet[] = TALLIED_FACETS,
): Promise<void> {
  if (mysql) await query('SET SESSION group_concat_max_len = 1048576');
  const attributeIds = mysql
    ? "GROUP_CONCAT(t.attribute_id ORDER BY t.attribute_id SEPARATOR ',')"
    : "group_concat(t.attribute_id, ',' ORDER BY t.attribute_id)";
  const words =
    `(SELECT t.token, t.asset_id, ${attributeIds} AS attribute_ids FROM asset_search_tokens t ` +
    `WHERE ${WORD_TOKEN_SQL} GROUP BY t.token, t.asset_id) w JOIN assets a ON a.id = w.asset_id`;
  const key = 'w.token, a.level_set_id, a.submitted, a.upload_pending, w.attribute_ids';
  const columns = 'token, level_set_id, submitted, upload_pending, attribute_ids';
  for (const facet of facets) {
    const { table, column } = WORD_FACET_TALLIES[facet];
    const { join, value } = facetValueSql(facet, mysql);
    await query(`DELETE FROM ${table}`);
    await query(
      `INSERT INTO ${table} (${columns}, ${column}, assets) ` +
        `SELECT ${key}, ${value}, COUNT(*) FROM ${words}${join} ` +
        `WHERE a.level_set_id IS NOT NULL GROUP BY ${key}, ${value}`,
    );
  }
}
