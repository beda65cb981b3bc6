import { Injectable } from '@nestjs/common';
import { Viewer } from '@dam/access';
import { DataSource } from 'typeorm';
import { AssetFilter } from '../ports/asset-filter';
import { VisibleLevelSets } from '../rules/asset-visibility';
import {
  CompiledFilter,
  filterConditions,
  levelSetVisibilitySql,
  levelVisibilitySql,
} from './asset-filter.sql';
import { assetsWhere, Id, idsOf, MAX_LISTED_IDS, QuerySources, rowsOf } from './query-sources';
import { SqlParams } from './sql-params';
import { wordProbeSql } from './word-walk';

/** What the tallies can count within: a `submitted` state, and the assets in some of these categories or levels. */
export type TalliedScope = Pick<AssetFilter, 'submitted' | 'categoryIds' | 'accessLevelIds' | 'keywords'>;

export type AssetLinkKind = 'accessLevel' | 'category';

const LINKS: Record<AssetLinkKind, { table: string; column: string }> = {
  accessLevel: { table: 'asset_access_levels', column: 'access_level_id' },
  category: { table: 'asset_categories', column: 'category_id' },
};

/** Ids per `IN (...)` list when asking which of many ids match. */
const ID_BATCH = 1000;

/**
 * How many assets match, and which: the count of a filter, its ids, the matches per category or access
 * level, and what the tallies leave out of a viewer's total (their own hidden uploads, assets counted
 * in two categories).
 */
@Injectable()
export class AssetCountRepository {
  constructor(private readonly sources: QuerySources) {}

  async count(search: CompiledFilter, dataSource: DataSource = this.sources.main): Promise<number> {
    const row: { total: Id } | undefined = await assetsWhere(search, dataSource.manager)
      .select('COUNT(*)', 'total')
      .getRawOne();
    return Number(row?.total ?? 0);
  }

  /** Every matching id, ascending; at most `limit` when given. */
  async ids(search: CompiledFilter, limit?: number): Promise<number[]> {
    const query = assetsWhere(search, this.sources.main.manager).select('a.id', 'id').orderBy('a.id', 'ASC');
    if (limit !== undefined) query.limit(limit);
    return idsOf(query);
  }

  /** Which of `ids` match, in the order of `ids`. */
  async matching(ids: number[], search: CompiledFilter): Promise<number[]> {
    const found = new Set<number>();
    const distinct = [...new Set(ids)];
    for (let start = 0; start < distinct.length; start += ID_BATCH) {
      const batch = distinct.slice(start, start + ID_BATCH);
      const query = assetsWhere(search, this.sources.main.manager)
        .select('a.id', 'id')
        .andWhere('a.id IN (:...matchIds)', { matchIds: batch });
      for (const id of await idsOf(query)) found.add(id);
    }
    return ids.filter((id) => found.has(id));
  }

  /**
   * Number of matching assets directly under each item, in ONE aggregate query (GROUP BY the link
   * column). Without conditions the link table's index answers alone. With `ids` only those items are
   * counted. Items without assets are absent from the map.
   */
  async countPer(link: AssetLinkKind, search: CompiledFilter, ids?: number[]): Promise<Map<number, number>> {
    if (ids !== undefined && ids.length === 0) return new Map();
    const { table, column } = LINKS[link];
    const query = this.sources.main
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
    const [query, parameters] = this.sources.main.driver.escapeQueryWithParameters(sql, {
      viewable,
      approvable,
      actor: actorId,
    });
    return toCounts(await this.sources.main.query(query, parameters));
  }

  /** The ids among `ids` of items that hold at least one asset. */
  async linkedItems(link: AssetLinkKind, ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const { table, column } = LINKS[link];
    const rows: Array<{ itemId: Id }> = await this.sources.main
      .createQueryBuilder()
      .select(`DISTINCT l.${column}`, 'itemId')
      .from(table, 'l')
      .where(`l.${column} IN (:...ids)`, { ids })
      .getRawMany();
    return new Set(rows.map((row) => Number(row.itemId)));
  }

  async hasLinkedAsset(link: AssetLinkKind, id: number): Promise<boolean> {
    const { table, column } = LINKS[link];
    const rows: unknown[] = await this.sources.main.query(
      `SELECT 1 AS present FROM ${table} WHERE ${column} = ? LIMIT 1`,
      [id],
    );
    return rows.length > 0;
  }

  /**
   * The viewer's own uploads that they would not see through their levels: what visibility adds to the
   * assets that the tallies count as visible to them (through the index on the uploader; on the read
   * replica when there is one). `scope`: of one `submitted` state, in some of these categories or levels.
   */
  async countOwnHidden(viewer: Viewer, scope: TalliedScope = {}): Promise<number> {
    return this.count(this.ownHiddenFilter(viewer, scope), this.sources.reader);
  }

  /** How many of the viewer's own uploads with one word they would not see (ownHiddenWordFilter). */
  async countOwnHiddenWord(
    viewer: Viewer,
    submitted: boolean | undefined,
    token: string,
    attributeIds: readonly number[],
  ): Promise<number> {
    return this.count(this.ownHiddenWordFilter(viewer, submitted, token, attributeIds), this.sources.reader);
  }

  /**
   * The viewer's own uploads with one word (`token` in one of `attributeIds`) that they would not see
   * through their levels, the word probed per upload: the uploads are found by their index and are few,
   * while the word may be on most of the library (as `a.id IN (the word's assets)`, SQLite read all of
   * them: 111 ms for the commonest word at 1M for the total, 231 ms with three facets).
   */
  ownHiddenWordFilter(
    viewer: Viewer,
    submitted: boolean | undefined,
    token: string,
    attributeIds: readonly number[],
  ): CompiledFilter {
    const params = new SqlParams();
    const own = this.ownHiddenFilter(viewer, { submitted }, params);
    const word = { tokenParam: params.add(token), attributesParam: params.add([...attributeIds]) };
    return { where: [...own.where, wordProbeSql(word)], params: params.values };
  }

  /** The viewer's own uploads (within `scope`) that they would not see through their levels. */
  ownHiddenFilter(viewer: Viewer, scope: TalliedScope = {}, params = new SqlParams()): CompiledFilter {
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
    const [row] = await rowsOf<{ extra: Id | null }>(this.sources.reader, sql, params);
    return Number(row?.extra ?? 0);
  }
}

function toCounts(rows: Array<{ itemId: Id; assetCount: Id }>): Map<number, number> {
  return new Map(rows.map((row) => [Number(row.itemId), Number(row.assetCount)]));
}
