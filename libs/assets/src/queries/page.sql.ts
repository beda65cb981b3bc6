import { DataSource, SelectQueryBuilder } from 'typeorm';
import { AssetSort } from '../ports/asset-filter';
import { AssetPosition } from '../ports/asset-queries.port';
import { CompiledFilter } from './asset-filter.sql';
import { assetsWhere, Id } from './query-sources';
import { SORT_WALK_LIMIT } from './sort-walk';

/**
 * The statements of a page of ids in a sort's order: the general query (pageQuery), the walk of a sort
 * copy in its index order (sortWalkQuery), and the keyset condition that starts a page after a row.
 */

/** The sort as SQL needs it: `addedBy` carries the user ids in username order (from the access area). */
export type ResolvedSort = Exclude<AssetSort, { kind: 'addedBy' }> | { kind: 'addedBy'; userIds: number[] };

/** One walk of a sort copy: which attribute, in which direction, which stretch of it. */
export interface SortWalk {
  attributeId: number;
  descending: boolean;
  offset: number;
  limit: number;
  after?: AssetPosition;
  /** At most SORT_WALK_LIMIT entries of the copy (a page without a count). */
  bounded?: boolean;
  table?: 'asset_sort_numbers' | 'asset_sort_texts';
}

/**
 * The value of the sorted text attribute, from its sort copy (`sv`, asset_sort_texts): the copy itself,
 * or, for the few values longer than it, the value in asset_attribute_values, up to SORTED_TEXT_LENGTH
 * characters. The general query of a text sort had joined asset_attribute_values for every match, whose
 * values of every attribute share its pages (16,051 matches sorted by title at 1M on MariaDB: 1.2 s, a
 * page read per match). The cast keeps the key a short VARCHAR: a TEXT key sent MariaDB's sort through an
 * on-disk temporary table (84 against 70 ms). So on MySQL two values alike in their first 192 characters
 * tie, and go by id (MySQL already compared only the first `max_sort_length` bytes, 1,024); SQLite's
 * cast does not cut.
 */
const SORTED_TEXT_LENGTH = 192;
const SORT_TEXT_KEY =
  'COALESCE(CASE WHEN sv.complete = 0 THEN (SELECT CAST(f.value AS CHAR(' +
  `${SORTED_TEXT_LENGTH})) FROM asset_attribute_values f WHERE f.asset_id = a.id ` +
  "AND f.attribute_id = :sortAttributeId AND f.language = '') END, sv.value)";

/**
 * One page in the order of `asset_sort_numbers (attribute_id, value, asset_id)` (or of the text copies,
 * `asset_sort_texts`): STRAIGHT_JOIN makes MySQL read that index first, in order, and probe each asset's
 * conditions, stopping at the LIMIT. Also run by the benchmark (EXPLAIN).
 */
export function sortWalkQuery(
  dataSource: DataSource,
  search: CompiledFilter,
  walk: SortWalk,
): SelectQueryBuilder<object> {
  const { attributeId, descending, offset, limit, after, bounded = false } = walk;
  const table = walk.table ?? 'asset_sort_numbers';
  const direction = descending ? 'DESC' : 'ASC';
  const query = dataSource
    .createQueryBuilder()
    .select('STRAIGHT_JOIN a.id', 'id')
    .addSelect('sn.value', 'sortKey');
  if (bounded) {
    // At most SORT_WALK_LIMIT entries of the index, in order: a derived table MySQL reads first.
    const entries = dataSource
      .createQueryBuilder()
      .select('w.asset_id', 'asset_id')
      .addSelect('w.value', 'value')
      .from('asset_sort_numbers', 'w')
      .where('w.attribute_id = :sortWalkAttributeId')
      .orderBy('w.value', direction)
      .addOrderBy('w.asset_id', direction)
      .limit(SORT_WALK_LIMIT);
    if (after !== undefined) entries.andWhere(keysetSql('w.value', 'w.asset_id', descending, after, false));
    query.from(`(${entries.getQuery()})`, 'sn');
  } else {
    query.from(table, 'sn').where('sn.attribute_id = :sortWalkAttributeId');
    if (after !== undefined) query.andWhere(keysetSql('sn.value', 'sn.asset_id', descending, after, false));
  }
  query.innerJoin('assets', 'a', 'a.id = sn.asset_id').setParameter('sortWalkAttributeId', attributeId);
  if (bounded) query.where('1 = 1');
  for (const condition of search.where) query.andWhere(condition);
  if (after !== undefined) query.setParameters(keysetParams(after));
  return query
    .setParameters(search.params)
    .orderBy('sn.value', direction)
    .addOrderBy('sn.asset_id', direction)
    .offset(offset)
    .limit(limit);
}

/**
 * SQLite's walk of the text copies (`asset_sort_texts (attribute_id, value, asset_id)`) in order, from the
 * first entry: one table in the outer query, so SQLite reads that index in order without a sort, and each
 * entry's asset is tested by an EXISTS on its primary key, stopping at the LIMIT (SQLite has no
 * STRAIGHT_JOIN, and would start a join from the filter's side). `tiedValue`: only the entries of that copy.
 */
export function sqliteTextWalkQuery(
  dataSource: DataSource,
  search: CompiledFilter,
  walk: { attributeId: number; descending: boolean; limit: number; tiedValue?: unknown },
): SelectQueryBuilder<object> {
  const direction = walk.descending ? 'DESC' : 'ASC';
  const conditions =
    search.where.length === 0 ? '' : ` AND ${search.where.map((w) => `(${w})`).join(' AND ')}`;
  const query = dataSource
    .createQueryBuilder()
    .select('sn.asset_id', 'id')
    .addSelect('sn.value', 'sortKey')
    .from('asset_sort_texts', 'sn')
    .where('sn.attribute_id = :sortWalkAttributeId', { sortWalkAttributeId: walk.attributeId })
    .andWhere(`EXISTS (SELECT 1 FROM assets a WHERE a.id = sn.asset_id${conditions})`)
    .setParameters(search.params);
  if (walk.tiedValue !== undefined) query.andWhere('sn.value = :tiedValue', { tiedValue: walk.tiedValue });
  return query.orderBy('sn.value', direction).addOrderBy('sn.asset_id', direction).limit(walk.limit);
}

/** The general query of one page of ids: every match read and sorted (also EXPLAINed by the benchmark). */
export function pageQuery(
  dataSource: DataSource,
  search: CompiledFilter,
  sort: ResolvedSort,
  descending: boolean,
  offset: number,
  limit: number,
  after?: AssetPosition,
): SelectQueryBuilder<object> {
  const direction = descending ? 'DESC' : 'ASC';
  const query = assetsWhere(search, dataSource.manager).select('a.id', 'id');
  if (sort.kind === 'addedAt' || sort.kind === 'modifiedAt') {
    const column = sort.kind === 'addedAt' ? 'a.created_at' : 'a.updated_at';
    query.addSelect(column, 'sortKey').orderBy(column, direction);
    if (after !== undefined) query.andWhere(keysetSql(column, 'a.id', descending, after, false));
  }
  if (sort.kind === 'addedBy') {
    const rank = usernameRankSql(sort.userIds);
    query.addSelect(rank, 'sortKey');
    query.orderBy('sortKey', direction);
    // NULL (no uploader) sorts first ascending, last descending, as both databases order it.
    if (after !== undefined) query.andWhere(keysetSql(rank, 'a.id', descending, after, descending));
  }
  if (sort.kind === 'id' && after !== undefined)
    query.andWhere(keysetSql(undefined, 'a.id', descending, after, false));
  if (sort.kind === 'value') {
    if (sort.numeric) {
      query.leftJoin(
        'asset_sort_numbers',
        'sv',
        'sv.asset_id = a.id AND sv.attribute_id = :sortAttributeId',
        { sortAttributeId: sort.attributeId },
      );
    } else {
      query.leftJoin('asset_sort_texts', 'sv', 'sv.asset_id = a.id AND sv.attribute_id = :sortAttributeId', {
        sortAttributeId: sort.attributeId,
      });
    }
    // Assets without a value come last in either direction. A text's key is its copy in
    // asset_sort_texts, or, when the copy is cut short (`complete` false), the whole value.
    const key = sort.numeric ? 'sv.value' : SORT_TEXT_KEY;
    query
      .addSelect('CASE WHEN sv.value IS NULL THEN 1 ELSE 0 END', 'sortMissing')
      .addSelect(key, 'sortKey')
      .orderBy('sortMissing', 'ASC')
      .addOrderBy('sortKey', direction);
    if (after !== undefined) query.andWhere(keysetSql(key, 'a.id', descending, after, true));
  }
  if (after !== undefined) query.setParameters(keysetParams(after));
  return query.addOrderBy('a.id', direction).offset(offset).limit(limit);
}

/**
 * The rank of the uploader's username (the user ids come from the access area in username order), as
 * integer literals: ids are numbers, and a long list of parameters would near SQLite's limit. Assets
 * without an uploader rank NULL, as the username subquery did.
 */
export function usernameRankSql(userIds: readonly number[]): string {
  const cases = userIds.filter((id) => Number.isSafeInteger(id)).map((id, rank) => `WHEN ${id} THEN ${rank}`);
  return cases.length === 0 ? 'NULL' : `CASE a.added_by_user_id ${cases.join(' ')} END`;
}

export interface KeyedRow {
  id: number;
  sortKey: unknown;
  /** The count of every match, when the query counted them (COUNT(*) OVER ()). */
  total?: number;
}

export async function keyedRows(query: SelectQueryBuilder<object>): Promise<KeyedRow[]> {
  const rows: RawKeyedRow[] = await query.getRawMany();
  return toKeyedRows(rows);
}

type RawKeyedRow = { id: Id; sortKey?: unknown; total?: Id };

export function toKeyedRows(rows: RawKeyedRow[]): KeyedRow[] {
  return rows.map((row) => ({
    id: Number(row.id),
    sortKey: row.sortKey ?? null,
    ...(row.total === undefined ? {} : { total: Number(row.total) }),
  }));
}

/**
 * "After this row" in the order `key` then `id`, both ascending or both descending: a strictly later key,
 * or the same key and a later id. `nullsLast` says where rows without a key sort (last in either
 * direction for attribute values; for the uploader rank, where the databases put NULL: first ascending,
 * last descending). Parameters: keysetParams.
 */
export function keysetSql(
  key: string | undefined,
  id: string,
  descending: boolean,
  after: AssetPosition,
  nullsLast: boolean,
): string {
  const later = descending ? '<' : '>';
  const idLater = `${id} ${later} :keysetId`;
  if (key === undefined) return idLater;
  if (after.key === null || after.key === undefined) {
    // After a row without a key: the rest of the keyless rows, then (if they sort after) the keyed ones.
    return nullsLast
      ? `(${key} IS NULL AND ${idLater})`
      : `((${key} IS NULL AND ${idLater}) OR ${key} IS NOT NULL)`;
  }
  const keyed = `(${key} ${later} :keysetKey OR (${key} = :keysetKey AND ${idLater}))`;
  return nullsLast ? `(${keyed} OR ${key} IS NULL)` : keyed;
}

export function keysetParams(after: AssetPosition): Record<string, unknown> {
  const key = after.key;
  return {
    keysetId: after.id,
    keysetKey: typeof key === 'string' && ISO_TIME.test(key) ? new Date(key) : (key ?? null),
  };
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
