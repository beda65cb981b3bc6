import { Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ReadReplica } from '@dam/database';
import { DataSource, EntityManager, In, SelectQueryBuilder } from 'typeorm';
import { AssetEntity } from '../entities/asset.entity';
import { AssetFilter, AssetSort } from '../ports/asset-filter';
import { AssetPage, AssetPageStart, AssetPosition, AssetSearchPage } from '../ports/asset-queries.port';
import { AssetRecord, AssetState, AttributeValue } from '../ports/asset-state';
import { hasPendingEdit } from '../rules/approval-state';
import { VisibleLevelSets } from '../rules/asset-visibility';
import { Viewer } from '@dam/access';
import {
  filterConditions,
  InternalFilter,
  KeywordPlan,
  levelSetVisibilitySql,
  levelVisibilitySql,
  SqlParams,
  TokenMatch,
  tokenRangeSql,
  groupedAssetIdsSql,
  nextTokenSql,
  prefixBounds,
  probedAssetIdsSql,
  scannedAssetIdsSql,
} from './asset-filter.sql';
import { chooseConjunctionForm } from './keyword-plan';
import { SORT_WALK_LIMIT, TEXT_WALK_SHARE_OF_ESTIMATE, walkMayPay, walkPays } from './sort-walk';

/** A filter compiled to SQL: conditions on the `assets` alias `a` (ANDed) and their named parameters. */
export interface CompiledFilter {
  where: string[];
  params: Record<string, unknown>;
  /** No condition but visibility and `submitted`: a page in id order reads the primary key in order. */
  everyAsset?: boolean;
  /** About what share of the library the filter's visibility keeps (from the tallies); 1 when unknown. */
  visibleShare?: number;
}

/** What the tallies can count within: a `submitted` state, and the assets in some of these categories or levels. */
export type TalliedScope = Pick<AssetFilter, 'submitted' | 'categoryIds' | 'accessLevelIds'>;

/** The sort as SQL needs it: `addedBy` carries the user ids in username order (from the access area). */
export type ResolvedSort = Exclude<AssetSort, { kind: 'addedBy' }> | { kind: 'addedBy'; userIds: number[] };

/** An asset's state as the assets tables hold it (usernames come from the access area). */
export type StoredState = Omit<AssetState, 'addedByUsername'>;

export type AssetLinkKind = 'accessLevel' | 'category';

type Id = number | string;

const LINKS: Record<AssetLinkKind, { table: string; column: string }> = {
  accessLevel: { table: 'asset_access_levels', column: 'access_level_id' },
  category: { table: 'asset_categories', column: 'category_id' },
};

/** Beyond a few thousand ids a list costs more than it saves (and nears SQLite's parameter limit). */
const MAX_LISTED_IDS = 5000;

/**
 * A conjunction of words is read by scanning its commonest condition against the others' assets when that
 * condition has at least this many times the others' estimated rows together (`misoba nuba*`: 14 times).
 */
const SCAN_COMMONEST_RATIO = 4;

/**
 * SQLite counts a token condition's rows up to this many (a few milliseconds), and drives a conjunction
 * from its rarest condition only below it: the probes from the rarest's rows stay within about 0.1 s.
 */
const SQLITE_ROW_COUNT_CAP = 50_000;

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

/** Slices of the assets that the scanned form of an AND reads side by side (scannedInSlices). */
const SCAN_SLICES = 2;

/** A prefix covering more tokens than this is scanned as one range (reading them out costs a step each). */
const MAX_SCANNED_TOKENS = 32;

/** Ids per `IN (...)` list when asking which of many ids match. */
const ID_BATCH = 1000;

export function compileFilter(
  filter: InternalFilter,
  probeVisibility?: boolean,
  keywordPlan?: KeywordPlan,
  levelSets?: VisibleLevelSets,
): CompiledFilter {
  const params = new SqlParams();
  const where = filterConditions(filter, params, probeVisibility, keywordPlan, levelSets);
  return { where, params: params.values };
}

/** All SQL behind AssetQueries and the asset counts: paging, counting and loading states of assets. */
@Injectable()
export class AssetQueriesRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Optional() private readonly replica?: ReadReplica,
  ) {}

  /** Where search reads go: the read replica when configured, else the main database. */
  private get reader(): DataSource {
    return this.replica?.dataSource ?? this.dataSource;
  }

  /**
   * One page of a search, read from the replica (ReadReplica: DATABASE_READ_URL, else the main database).
   * Asks for one row more than the page to know whether another follows; a keyset start (`after`) adds
   * the "after this row" condition on the sort key, so a deep page reads what the first does. The count
   * runs beside the page unless `count` is false, or in the page's own statement when that sorts every
   * match. A sort by value on MySQL may walk a sort copy instead (walkedPage). `counted` is the same
   * filter compiled for counting (visibility materialised when nothing narrows).
   */
  async searchPage(
    search: CompiledFilter,
    sort: ResolvedSort,
    descending: boolean,
    start: AssetPageStart,
    limit: number,
    count: boolean,
    counted: CompiledFilter = search,
  ): Promise<AssetSearchPage> {
    const reader = this.reader;
    const offset = 'offset' in start ? start.offset : 0;
    const after = 'after' in start ? start.after : undefined;
    let { total, rows } = await this.walkedPage(
      search,
      sort,
      descending,
      offset,
      limit,
      after,
      count,
      counted,
    );
    if (rows === undefined) {
      const query = this.pageQuery(search, sort, descending, offset, limit + 1, after, reader);
      // A query that reads and sorts every match counts them as it goes (COUNT(*) OVER (): 2 ms more
      // than the page at 18,153 matches on MariaDB, where a count of its own took 25 ms).
      const windowed = count && total === undefined && after === undefined && sortsEveryMatch(sort);
      if (windowed) query.addSelect('COUNT(*) OVER ()', 'total');
      // MariaDB and SQLite would read the `submitted` index and sort every match; the primary key (or,
      // on SQLite, the time index: sqliteWalk) is already in order and the walk stops after the page
      // (page 500 of the whole library on MariaDB: 141 -> 15 ms; page 1 as a quarter viewer on SQLite
      // at 1M: 344 -> 2 ms).
      const inIdOrder = search.everyAsset === true && sort.kind === 'id';
      if (inIdOrder && this.isMysql()) query.useIndex('PRIMARY');
      const walked = this.isMysql() ? undefined : sqliteWalk(search, sort);
      const paged = walked === undefined ? keyedRows(query) : keyedRowsWalking(query, reader, walked);
      const counting = count && total === undefined && !windowed ? this.count(counted, reader) : total;
      [total, rows] = await Promise.all([counting, paged]);
      if (windowed) {
        // A page past the end has no row to carry the count.
        total = rows[0]?.total ?? (offset === 0 ? 0 : await this.count(counted, reader));
      }
    }
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const next =
      rows.length > limit && last !== undefined
        ? sort.kind === 'id'
          ? { id: last.id }
          : { key: normalisedKey(last.sortKey, sort), id: last.id }
        : undefined;
    return { ...(total === undefined ? {} : { total }), ids: page.map((row) => row.id), next };
  }

  /**
   * A page of a sort by value on MySQL read along the order of a sort copy, when that pays (sort-walk.ts:
   * judged from the plan's estimate before counting, then from the count): the total when it was counted,
   * and the rows (one more than the page) when the walk gave them; else nothing, for the general query.
   * - A number walks `asset_sort_numbers` and stops after the page (without a count, a bounded stretch).
   * - A text (offset pages) walks `asset_sort_texts` for the candidates of the page (textWalkCandidates)
   *   and sorts the page among them by the values themselves.
   */
  private async walkedPage(
    search: CompiledFilter,
    sort: ResolvedSort,
    descending: boolean,
    offset: number,
    limit: number,
    after: AssetPosition | undefined,
    count: boolean,
    counted: CompiledFilter,
  ): Promise<{ total?: number; rows?: KeyedRow[] }> {
    if (sort.kind !== 'value' || !this.isMysql()) return {};
    const reader = this.reader;
    if (sort.numeric) {
      if (after?.key === null) return {};
      const walk = async (bounded: boolean): Promise<KeyedRow[]> =>
        keyedRows(
          this.sortWalkQuery(search, sort.attributeId, descending, offset, limit + 1, after, reader, bounded),
        );
      const assets = await this.maxAssetId(reader);
      if (!count) {
        const walked = await walk(true);
        return walked.length === limit + 1 ? { rows: walked } : {};
      }
      const estimate = await this.estimatedMatches(search, reader);
      if (!walkMayPay(offset + limit, assets, estimate, search.visibleShare)) return {};
      const total = await this.count(counted, reader);
      if (offset >= total) return { total, rows: [] };
      if (!walkPays(offset + limit, assets, total)) return { total };
      const walked = await walk(false);
      const filled = walked.length === limit + 1 || offset + walked.length >= total;
      return filled ? { total, rows: walked } : { total };
    }
    if (after !== undefined || !count) return {};
    const assets = await this.maxAssetId(reader);
    const wanted = offset + limit + 1;
    const estimate = await this.estimatedMatches(search, reader);
    if (!walkMayPay(wanted, assets, estimate, search.visibleShare, TEXT_WALK_SHARE_OF_ESTIMATE)) return {};
    const total = await this.count(counted, reader);
    if (offset >= total) return { total, rows: [] };
    if (!walkPays(wanted, assets, total)) return { total };
    const candidates = await this.textWalkCandidates(search, sort.attributeId, descending, wanted, reader);
    // Fewer than wanted and fewer than every match: some matches have no value (they come last).
    if (candidates === undefined || candidates.length < Math.min(wanted, total)) return { total };
    const among = { ...search, where: [...search.where, `a.id IN (${candidates.join(', ')})`] };
    const rows = await keyedRows(
      this.pageQuery(among, sort, descending, offset, limit + 1, undefined, reader),
    );
    return { total, rows };
  }

  /**
   * The total and one page of ids. Count and page run side by side, except for a numeric sort on MySQL:
   * there the count comes first, and when the page is near the top of a result that is not too sparse
   * (see walkPays), the page walks the sort index in order and stops after one page instead of
   * reading and sorting the value of every match. The walk only sees assets with a value; when it cannot
   * fill the page, the general query answers.
   */
  async page(
    search: CompiledFilter,
    sort: ResolvedSort,
    descending: boolean,
    offset: number,
    limit: number,
  ): Promise<AssetPage> {
    if (sort.kind !== 'value' || !sort.numeric || !this.isMysql()) {
      const [total, ids] = await Promise.all([
        this.count(search),
        this.idsOf(this.pageQuery(search, sort, descending, offset, limit)),
      ]);
      return { total, ids };
    }
    const total = await this.count(search);
    if (offset >= total) return { total, ids: [] };
    if (walkPays(offset + limit, await this.maxAssetId(), total)) {
      const ids = await this.idsOf(this.sortWalkQuery(search, sort.attributeId, descending, offset, limit));
      if (ids.length === limit || offset + ids.length === total) return { total, ids };
    }
    return { total, ids: await this.idsOf(this.pageQuery(search, sort, descending, offset, limit)) };
  }

  /**
   * One page in the order of `asset_sort_numbers (attribute_id, value, asset_id)` (or of the text copies,
   * `asset_sort_texts`): STRAIGHT_JOIN makes MySQL read that index first, in order, and probe each asset's
   * conditions, stopping at the LIMIT. Public for EXPLAIN in the benchmark.
   */
  sortWalkQuery(
    search: CompiledFilter,
    attributeId: number,
    descending: boolean,
    offset: number,
    limit: number,
    after?: AssetPosition,
    dataSource: DataSource = this.dataSource,
    bounded = false,
    table: 'asset_sort_numbers' | 'asset_sort_texts' = 'asset_sort_numbers',
  ): SelectQueryBuilder<object> {
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
   * The assets that can be among the first `wanted` matches in the order of a text (MySQL), from a walk
   * of `asset_sort_texts (attribute_id, value, asset_id)`: the copies are the values' first 64
   * characters, in the values' collation, so every match whose copy sorts before the last one walked is
   * already among them, and the matches whose copy equals it (values alike in their first 64 characters,
   * whose whole values decide) are read as well. The page is then sorted among these ids by the values
   * themselves (pageQuery), exactly as the general query sorts every match.
   */
  private async textWalkCandidates(
    search: CompiledFilter,
    attributeId: number,
    descending: boolean,
    wanted: number,
    reader: DataSource,
  ): Promise<number[] | undefined> {
    const walk = this.sortWalkQuery(
      search,
      attributeId,
      descending,
      0,
      wanted,
      undefined,
      reader,
      false,
      'asset_sort_texts',
    );
    const walked: Array<{ id: Id; sortKey: string }> = await walk.getRawMany();
    const ids = walked.map((row) => Number(row.id));
    const last = walked[walked.length - 1];
    if (walked.length < wanted || last === undefined) return ids;
    const tied = this.sortWalkQuery(
      search,
      attributeId,
      descending,
      0,
      MAX_LISTED_IDS,
      undefined,
      reader,
      false,
      'asset_sort_texts',
    ).andWhere('sn.value = :tiedValue', { tiedValue: last.sortKey });
    const tie: Array<{ id: Id }> = await tied.getRawMany();
    // So many alike that the list may be cut: the general query sorts every match instead.
    if (tie.length >= MAX_LISTED_IDS) return undefined;
    return [...new Set([...ids, ...tie.map((row) => Number(row.id))])];
  }

  /**
   * The viewer's own uploads that they would not see through their levels: what visibility adds to the
   * assets that the tallies count as visible to them (through the index on the uploader; on the read
   * replica when there is one). `scope`: of one `submitted` state, in some of these categories or levels.
   */
  async countOwnHidden(viewer: Viewer, scope: TalliedScope = {}): Promise<number> {
    return this.count(this.ownHiddenFilter(viewer, scope), this.reader);
  }

  /** The viewer's own uploads (within `scope`) that they would not see through their levels. */
  ownHiddenFilter(viewer: Viewer, scope: TalliedScope = {}): CompiledFilter {
    const params = new SqlParams();
    const where = [`a.added_by_user_id = ${params.add(viewer.actor.id)}`, ...filterConditions(scope, params)];
    const throughLevels = levelVisibilitySql(viewer, params);
    if (throughLevels !== undefined) where.push(`NOT ${throughLevels}`);
    return { where, params: params.values };
  }

  /**
   * What summing the category tallies of `categoryIds` counts more than once: for each asset in k > 1 of
   * them, k - 1, over the assets of the `submitted` state (when given) that the viewer sees through their
   * levels (`sets`, else the rule as a probe), as the tallies count them. One grouped read of the
   * categories' index entries; only assets in two of them are looked up (on the read replica).
   */
  async repeatedCategoryLinks(
    categoryIds: number[],
    viewer: Viewer | undefined,
    submitted: boolean | undefined,
    sets: VisibleLevelSets | undefined,
  ): Promise<number> {
    if (categoryIds.length < 2) return 0;
    const params = new SqlParams();
    const where = filterConditions({ submitted }, params);
    if (viewer !== undefined && !viewer.grants.all) {
      const throughLevels =
        sets === undefined ? levelVisibilitySql(viewer, params) : levelSetVisibilitySql(sets, params);
      if (throughLevels === undefined) return 0;
      where.push(throughLevels);
    }
    const sql =
      'SELECT COALESCE(SUM(r.extra), 0) AS extra FROM (SELECT l.asset_id, COUNT(*) - 1 AS extra ' +
      `FROM asset_categories l WHERE l.category_id IN ${params.add(categoryIds)} ` +
      'GROUP BY l.asset_id HAVING COUNT(*) > 1) r JOIN assets a ON a.id = r.asset_id' +
      (where.length === 0 ? '' : ` WHERE ${where.join(' AND ')}`);
    const [row] = await rowsOf<{ extra: Id | null }>(this.reader, sql, params);
    return Number(row?.extra ?? 0);
  }

  /**
   * Each token condition's index rows, every attribute, on the replica: on MySQL as it estimates them
   * (EXPLAIN of the primary-key range: index dives, no rows read); on SQLite counted up to
   * SQLITE_ROW_COUNT_CAP (at most a few milliseconds). keyword-plan.ts plans conjunctions by them.
   */
  async tokenRowEstimates(conditions: readonly TokenMatch[]): Promise<number[]> {
    const reader = this.reader;
    const mysql = this.isMysql();
    return Promise.all(
      conditions.map(async (condition) => {
        const params = new SqlParams();
        const range = tokenRangeSql(condition, params, mysql);
        const sql = mysql
          ? `EXPLAIN ${range}`
          : `SELECT COUNT(*) AS "rows" FROM (${range} LIMIT ${SQLITE_ROW_COUNT_CAP}) r`;
        const [row] = await rowsOf<{ rows?: Id | null }>(reader, sql, params);
        return Number(row?.rows ?? 0);
      }),
    );
  }

  /**
   * A conjunction of token conditions as keyword-plan.ts plans it (ConjunctionReader), read on the
   * replica; `rows`: each condition's rows (tokenRowEstimates).
   * - MySQL: the per-token semi-joins (undefined) when the cost model says so; else the assets having
   *   every condition, when at most MAX_LISTED_IDS, from one statement: when one condition has at least
   *   SCAN_COMMONEST_RATIO times the others' rows, its range scanned against theirs (scannedAssetIdsSql),
   *   else every row grouped by asset (groupedAssetIdsSql); past MAX_LISTED_IDS, that grouped scan as a
   *   subquery (`'grouped'`).
   * - SQLite: the rarest condition's assets probing the others (probedAssetIdsSql), when it has fewer
   *   than SQLITE_ROW_COUNT_CAP rows and they find at most MAX_LISTED_IDS assets; else the semi-joins.
   */
  async conjunctionMatches(
    conditions: readonly TokenMatch[],
    attributeIds: readonly number[],
    rows: readonly number[],
  ): Promise<readonly number[] | 'grouped' | undefined> {
    const params = new SqlParams();
    let sql: string;
    if (this.isMysql()) {
      if (chooseConjunctionForm(rows) === 'perToken') return undefined;
      const commonest = rows.indexOf(Math.max(...rows));
      const others = rows.reduce((sum, n) => sum + n, 0) - rows[commonest];
      const scanned = rows[commonest] >= SCAN_COMMONEST_RATIO * others;
      const sliced = scanned ? await this.scannedInSlices(conditions, attributeIds, commonest) : undefined;
      if (sliced !== undefined) return sliced;
      sql = scanned
        ? scannedAssetIdsSql(conditions, attributeIds, params, commonest)
        : `${groupedAssetIdsSql(conditions, attributeIds, params)} ORDER BY t.asset_id`;
    } else {
      const rarest = rows.indexOf(Math.min(...rows));
      if (rows[rarest] >= SQLITE_ROW_COUNT_CAP) return undefined;
      sql = probedAssetIdsSql(conditions, attributeIds, params, rarest);
    }
    const found = await rowsOf<{ asset_id: Id }>(this.reader, `${sql} LIMIT ${MAX_LISTED_IDS + 1}`, params);
    if (found.length <= MAX_LISTED_IDS) return found.map((row) => Number(row.asset_id));
    return this.isMysql() ? 'grouped' : undefined;
  }

  /**
   * The scanned form (scannedAssetIdsSql) in SCAN_SLICES slices of the assets, side by side on as many
   * connections of the replica: the scanned condition's tokens are read out first (a prefix: one step
   * of its index per distinct token, at most MAX_SCANNED_TOKENS), so that each slice reads its own stretch
   * of each token's rows. `misoba nuba*` at 1M: one statement 67-73 ms, each of two slices 38-44 ms.
   * Undefined when the prefix covers too many tokens (the single statement runs); the ids, or `'grouped'`
   * past MAX_LISTED_IDS.
   */
  private async scannedInSlices(
    conditions: readonly TokenMatch[],
    attributeIds: readonly number[],
    scanned: number,
  ): Promise<readonly number[] | 'grouped' | undefined> {
    const reader = this.reader;
    const tokens = await this.tokensOf(conditions[scanned], reader);
    if (tokens === undefined) return undefined;
    if (tokens.length === 0) return [];
    const top = await this.maxAssetId(reader);
    const size = Math.ceil(top / SCAN_SLICES);
    const slices = Array.from({ length: SCAN_SLICES }, (_, i) => ({
      tokens,
      fromAssetId: i * size + 1,
      toAssetId: i === SCAN_SLICES - 1 ? Number.MAX_SAFE_INTEGER : (i + 1) * size,
    }));
    const found = await Promise.all(
      slices.map(async (slice) => {
        const params = new SqlParams();
        const sql = `${scannedAssetIdsSql(conditions, attributeIds, params, scanned, slice)} LIMIT ${MAX_LISTED_IDS + 1}`;
        const rows = await rowsOf<{ asset_id: Id }>(reader, sql, params);
        return rows.map((row) => Number(row.asset_id));
      }),
    );
    const ids = found.flat().sort((a, b) => a - b);
    return ids.length > MAX_LISTED_IDS ? 'grouped' : ids;
  }

  /**
   * The distinct tokens of a token condition: itself, or the tokens a prefix covers, read out along the
   * primary key one step each (MariaDB would not skip through its index for them); undefined past
   * MAX_SCANNED_TOKENS.
   */
  private async tokensOf(match: TokenMatch, reader: DataSource): Promise<string[] | undefined> {
    if (!match.prefix) return [match.token];
    const bounds = prefixBounds(match.token);
    const tokens: string[] = [];
    for (;;) {
      const params = new SqlParams();
      const sql = nextTokenSql({ ...bounds, after: tokens[tokens.length - 1] }, params);
      const [row] = await rowsOf<{ token: string }>(reader, sql, params);
      if (row === undefined) return tokens;
      if (tokens.length === MAX_SCANNED_TOKENS) return undefined;
      tokens.push(row.token);
    }
  }

  async count(search: CompiledFilter, dataSource: DataSource = this.dataSource): Promise<number> {
    const row: { total: Id } | undefined = await this.base(search, dataSource.manager)
      .select('COUNT(*)', 'total')
      .getRawOne();
    return Number(row?.total ?? 0);
  }

  /** Every matching id, ascending; at most `limit` when given. */
  async ids(search: CompiledFilter, limit?: number): Promise<number[]> {
    const query = this.base(search).select('a.id', 'id').orderBy('a.id', 'ASC');
    if (limit !== undefined) query.limit(limit);
    return this.idsOf(query);
  }

  /** Which of `ids` match, in the order of `ids`. */
  async matching(ids: number[], search: CompiledFilter): Promise<number[]> {
    const found = new Set<number>();
    const distinct = [...new Set(ids)];
    for (let start = 0; start < distinct.length; start += ID_BATCH) {
      const batch = distinct.slice(start, start + ID_BATCH);
      const query = this.base(search)
        .select('a.id', 'id')
        .andWhere('a.id IN (:...matchIds)', { matchIds: batch });
      for (const id of await this.idsOf(query)) found.add(id);
    }
    return ids.filter((id) => found.has(id));
  }

  /** The query of one page of ids (public for EXPLAIN in the benchmark). */
  pageQuery(
    search: CompiledFilter,
    sort: ResolvedSort,
    descending: boolean,
    offset: number,
    limit: number,
    after?: AssetPosition,
    dataSource: DataSource = this.dataSource,
  ): SelectQueryBuilder<object> {
    const direction = descending ? 'DESC' : 'ASC';
    const query = this.base(search, dataSource.manager).select('a.id', 'id');
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
        query.leftJoin(
          'asset_sort_texts',
          'sv',
          'sv.asset_id = a.id AND sv.attribute_id = :sortAttributeId',
          {
            sortAttributeId: sort.attributeId,
          },
        );
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
   * Number of matching assets directly under each item, in ONE aggregate query (GROUP BY the link
   * column). Without conditions the link table's index answers alone. With `ids` only those items are
   * counted. Items without assets are absent from the map.
   */
  async countPer(link: AssetLinkKind, search: CompiledFilter, ids?: number[]): Promise<Map<number, number>> {
    if (ids !== undefined && ids.length === 0) return new Map();
    const { table, column } = LINKS[link];
    const query = this.dataSource
      .createQueryBuilder()
      .select(`l.${column}`, 'itemId')
      .addSelect('COUNT(*)', 'assetCount')
      .from(table, 'l')
      .groupBy(`l.${column}`);
    if (search.where.length > 0) {
      query.innerJoin('assets', 'a', 'a.id = l.asset_id').where('1 = 1');
      for (const condition of search.where) query.andWhere(condition);
      query.setParameters(search.params);
    }
    if (ids !== undefined && ids.length <= MAX_LISTED_IDS) {
      query.andWhere(`l.${column} IN (:...countedIds)`, { countedIds: ids });
    }
    return toCounts(await query.getRawMany());
  }

  /**
   * Assets directly in each of `levelIds` that the actor may see (DESIGN §5), in ONE aggregate statement:
   * every link of the level (answered by the index alone) minus the links to assets hidden from the actor.
   * `viewable` must hold only levels the actor may view: there the "view on one of its levels" part of
   * the rule holds for every asset, so an asset is hidden exactly when it is not live, not the actor's
   * own upload, and not approvable by the actor (approve on every one of its levels) — the complement of
   * `visibilitySql`. Hidden assets are the few not live ones, found through the index on (submitted,
   * upload_pending), so this costs far less than testing every asset.
   */
  async countVisiblePerViewableLevel(
    actorId: number,
    approvable: number[],
    viewable: number[],
  ): Promise<Map<number, number>> {
    if (viewable.length === 0) return new Map();
    const notApprovable =
      approvable.length === 0
        ? ''
        : 'AND EXISTS (SELECT 1 FROM asset_access_levels p WHERE p.asset_id = a.id AND p.access_level_id NOT IN (:...approvable)) ';
    const sql =
      'SELECT c.level_id AS itemId, SUM(c.n) AS assetCount FROM (' +
      'SELECT l.access_level_id AS level_id, COUNT(*) AS n FROM asset_access_levels l ' +
      'WHERE l.access_level_id IN (:...viewable) GROUP BY l.access_level_id ' +
      'UNION ALL ' +
      'SELECT l.access_level_id AS level_id, -COUNT(*) AS n FROM assets a ' +
      'JOIN asset_access_levels l ON l.asset_id = a.id ' +
      'WHERE (a.submitted = 0 OR (a.submitted = 1 AND a.upload_pending = 1)) ' +
      'AND (a.added_by_user_id IS NULL OR a.added_by_user_id <> :actor) ' +
      notApprovable +
      'AND l.access_level_id IN (:...viewable) GROUP BY l.access_level_id' +
      ') c GROUP BY c.level_id';
    const [query, parameters] = this.dataSource.driver.escapeQueryWithParameters(sql, {
      viewable,
      approvable,
      actor: actorId,
    });
    return toCounts(await this.dataSource.query(query, parameters));
  }

  /** The ids among `ids` of items that hold at least one asset. */
  async linkedItems(link: AssetLinkKind, ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const { table, column } = LINKS[link];
    const rows: Array<{ itemId: Id }> = await this.dataSource
      .createQueryBuilder()
      .select(`DISTINCT l.${column}`, 'itemId')
      .from(table, 'l')
      .where(`l.${column} IN (:...ids)`, { ids })
      .getRawMany();
    return new Set(rows.map((row) => Number(row.itemId)));
  }

  async hasLinkedAsset(link: AssetLinkKind, id: number): Promise<boolean> {
    const { table, column } = LINKS[link];
    const rows: unknown[] = await this.dataSource.query(
      `SELECT 1 AS present FROM ${table} WHERE ${column} = ? LIMIT 1`,
      [id],
    );
    return rows.length > 0;
  }

  /** The state of each asset (in the order of `ids`), with values in the given storage languages only. */
  async states(ids: number[], languages: string[]): Promise<StoredState[]> {
    if (ids.length === 0) return [];
    const [assets, levels, categories, parents, values, pending] = await Promise.all([
      this.dataSource.getRepository(AssetEntity).findBy({ id: In(ids) }),
      this.links('asset_access_levels', 'access_level_id', ids),
      this.links('asset_categories', 'category_id', ids),
      this.links('asset_parents', 'parent_id', ids),
      this.values(ids, languages),
      this.links('asset_pending_edits', 'asset_id', ids),
    ]);
    const byId = new Map(assets.map((asset) => [asset.id, asset]));
    const valuesOf = new Map<number, AttributeValue[]>();
    for (const { assetId, attributeId, language, value } of values) {
      valuesOf.set(assetId, [...(valuesOf.get(assetId) ?? []), { attributeId, language, value }]);
    }
    const states: StoredState[] = [];
    for (const id of ids) {
      const asset = byId.get(id);
      if (asset === undefined) continue; // deleted between the id query and this one
      states.push({
        asset: toRecord(asset),
        accessLevelIds: levels.get(id) ?? [],
        categoryIds: categories.get(id) ?? [],
        parentIds: parents.get(id) ?? [],
        values: valuesOf.get(id) ?? [],
        hasPendingEdit: hasPendingEdit(asset, pending.has(id)),
      });
    }
    return states;
  }

  /**
   * The values of the assets in the languages, as plain rows (a page of 100 assets holds about 1,000:
   * read raw, not hydrated as entities).
   */
  private async values(
    ids: number[],
    languages: string[],
  ): Promise<Array<AttributeValue & { assetId: number }>> {
    const rows: Array<{ assetId: Id; attributeId: Id; language: string; value: string }> =
      await this.dataSource
        .createQueryBuilder()
        .select('v.asset_id', 'assetId')
        .addSelect('v.attribute_id', 'attributeId')
        .addSelect('v.language', 'language')
        .addSelect('v.value', 'value')
        .from('asset_attribute_values', 'v')
        .where('v.asset_id IN (:...ids)', { ids })
        .andWhere('v.language IN (:...languages)', { languages })
        .getRawMany();
    return rows.map((row) => ({
      assetId: Number(row.assetId),
      attributeId: Number(row.attributeId),
      language: row.language,
      value: row.value,
    }));
  }

  /** `SELECT ... FROM assets a WHERE <search>`. */
  private base(search: CompiledFilter, manager: EntityManager = this.dataSource.manager) {
    const query = manager.createQueryBuilder().from('assets', 'a').where('1 = 1');
    for (const condition of search.where) query.andWhere(condition);
    return query.setParameters(search.params);
  }

  private async idsOf(query: SelectQueryBuilder<object>): Promise<number[]> {
    const rows: Array<{ id: Id }> = await query.getRawMany();
    return rows.map((row) => Number(row.id));
  }

  /**
   * About how many rows the filter reads at most, as MySQL's plan estimates them (EXPLAIN: index dives, no
   * rows read): the largest estimate of a table the outer query reads. Conditions the plan does not
   * estimate (visibility, `submitted`) are not taken off, so it is rather above the matches; a plan
   * MySQL cannot estimate reads the whole table and says so.
   */
  private async estimatedMatches(search: CompiledFilter, reader: DataSource): Promise<number> {
    const [sql, parameters] = this.base(search, reader.manager).select('a.id', 'id').getQueryAndParameters();
    const plan: Array<{ select_type?: string; rows?: Id | null }> = await reader.query(
      `EXPLAIN ${sql}`,
      parameters,
    );
    const outer = plan.filter((row) => row.select_type === 'SIMPLE' || row.select_type === 'PRIMARY');
    return Math.max(0, ...outer.map((row) => Number(row.rows ?? 0)));
  }

  /** An upper bound of the number of assets, read from the primary key at no cost. */
  private async maxAssetId(dataSource: DataSource = this.dataSource): Promise<number> {
    const row: { maxId: Id | null } | undefined = await dataSource
      .createQueryBuilder()
      .select('MAX(a.id)', 'maxId')
      .from('assets', 'a')
      .getRawOne();
    return Number(row?.maxId ?? 0);
  }

  private isMysql(): boolean {
    return this.dataSource.options.type === 'mysql';
  }

  private async links(table: string, column: string, ids: number[]): Promise<Map<number, number[]>> {
    const rows: Array<{ assetId: Id; linked: Id }> = await this.dataSource
      .createQueryBuilder()
      .select('l.asset_id', 'assetId')
      .addSelect(`l.${column}`, 'linked')
      .from(table, 'l')
      .where('l.asset_id IN (:...ids)', { ids })
      .orderBy(`l.${column}`)
      .getRawMany();
    const result = new Map<number, number[]>();
    for (const row of rows) {
      const assetId = Number(row.assetId);
      result.set(assetId, [...(result.get(assetId) ?? []), Number(row.linked)]);
    }
    return result;
  }
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

export function toRecord(asset: AssetEntity): AssetRecord {
  return {
    id: asset.id,
    submitted: asset.submitted,
    uploadPending: asset.uploadPending,
    contentPending: asset.contentPending,
    archived: asset.archived,
    type: asset.type,
    assetTypeId: asset.assetTypeId,
    addedByUserId: asset.addedByUserId,
    createdAt: asset.createdAt,
    updatedAt: asset.updatedAt,
    version: asset.version,
  };
}

/** The rows of a statement written with SqlParams, on `dataSource`. */
async function rowsOf<T>(dataSource: DataSource, sql: string, params: SqlParams): Promise<T[]> {
  const [query, parameters] = dataSource.driver.escapeQueryWithParameters(sql, params.values);
  return (await dataSource.query(query, parameters)) as T[];
}

interface KeyedRow {
  id: number;
  sortKey: unknown;
  /** The count of every match, when the query counted them (COUNT(*) OVER ()). */
  total?: number;
}

async function keyedRows(query: SelectQueryBuilder<object>): Promise<KeyedRow[]> {
  const rows: RawKeyedRow[] = await query.getRawMany();
  return toKeyedRows(rows);
}

/**
 * Whether the general query of this sort reads and sorts every match before the page (no index gives
 * its order): the value of an attribute, or the uploader's username rank. Time and id orders may walk an
 * index and stop after the page, which counting every match would undo.
 */
function sortsEveryMatch(sort: ResolvedSort): boolean {
  return sort.kind === 'value' || sort.kind === 'addedBy';
}

/**
 * How SQLite should read `assets` for a page of every asset (no condition but visibility) in id or time
 * order: in rowid order (`NOT INDEXED`, its form of `USE INDEX (PRIMARY)`) or along the time index, which
 * are already in the page's order, so the walk stops after the page. Left to itself, SQLite reads the
 * `submitted` index and sorts every match (page 1 sorted by date added at 1M: 175 ms; a quarter viewer
 * 228 ms). Undefined for any other page.
 */
function sqliteWalk(search: CompiledFilter, sort: ResolvedSort): string | undefined {
  if (search.everyAsset !== true) return undefined;
  if (sort.kind === 'id') return 'NOT INDEXED';
  if (sort.kind === 'addedAt') return 'INDEXED BY "IDX_assets_created_at_id"';
  if (sort.kind === 'modifiedAt') return 'INDEXED BY "IDX_assets_updated_at_id"';
  return undefined;
}

/** The page with the outer `assets` read as `walk` says (sqliteWalk), which the query builder cannot say. */
async function keyedRowsWalking(
  query: SelectQueryBuilder<object>,
  reader: DataSource,
  walk: string,
): Promise<KeyedRow[]> {
  const [sql, parameters] = query.getQueryAndParameters();
  const from = 'FROM "assets" "a"';
  if (!sql.includes(from)) return keyedRows(query);
  return toKeyedRows(await reader.query(sql.replace(from, `${from} ${walk}`), parameters));
}

type RawKeyedRow = { id: Id; sortKey?: unknown; total?: Id };

function toKeyedRows(rows: RawKeyedRow[]): KeyedRow[] {
  return rows.map((row) => ({
    id: Number(row.id),
    sortKey: row.sortKey ?? null,
    ...(row.total === undefined ? {} : { total: Number(row.total) }),
  }));
}

/**
 * A sort key as a cursor carries it: numbers as numbers, times as ISO text (MySQL answers a Date, SQLite
 * its stored UTC text), texts as text, none as null.
 */
function normalisedKey(raw: unknown, sort: ResolvedSort): number | string | null {
  if (raw === null || raw === undefined) return null;
  if (sort.kind === 'addedAt' || sort.kind === 'modifiedAt') {
    const at = raw instanceof Date ? raw : new Date(`${String(raw).replace(' ', 'T')}Z`);
    return at.toISOString();
  }
  if (sort.kind === 'addedBy' || (sort.kind === 'value' && sort.numeric)) return Number(raw);
  return String(raw);
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

function toCounts(rows: Array<{ itemId: Id; assetCount: Id }>): Map<number, number> {
  return new Map(rows.map((row) => [Number(row.itemId), Number(row.assetCount)]));
}
