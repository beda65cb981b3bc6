import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, SelectQueryBuilder } from 'typeorm';
import { AssetAttributeValueEntity } from '../entities/asset-attribute-value.entity';
import { AssetEntity } from '../entities/asset.entity';
import { AssetSort } from '../ports/asset-filter';
import { AssetPage } from '../ports/asset-queries.port';
import { AssetRecord, AssetState, AttributeValue } from '../ports/asset-state';
import { hasPendingEdit } from '../rules/approval-state';
import { filterConditions, InternalFilter, SqlParams } from './asset-filter.sql';

/** A filter compiled to SQL: conditions on the `assets` alias `a` (ANDed) and their named parameters. */
export interface CompiledFilter {
  where: string[];
  params: Record<string, unknown>;
}

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

/**
 * The sort-index walk is used when it should read at most about this many index entries: a page at
 * offset `o` of a result matching `total` of `n` assets needs about `(o + limit) * n / total`.
 */
const SORT_WALK_LIMIT = 50_000;

/** Beyond a few thousand ids a list costs more than it saves (and nears SQLite's parameter limit). */
const MAX_LISTED_IDS = 5000;

/** Ids per `IN (...)` list when asking which of many ids match. */
const ID_BATCH = 1000;

export function compileFilter(filter: InternalFilter): CompiledFilter {
  const params = new SqlParams();
  const where = filterConditions(filter, params);
  return { where, params: params.values };
}

/** All SQL behind AssetQueries and the asset counts: paging, counting and loading states of assets. */
@Injectable()
export class AssetQueriesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The total and one page of ids. Count and page run side by side, except for a numeric sort on MySQL:
   * there the count comes first, and when the page is near the top of a result that is not too sparse
   * (see SORT_WALK_LIMIT), the page walks the sort index in order and stops after one page instead of
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
    if ((offset + limit) * (await this.maxAssetId()) <= SORT_WALK_LIMIT * total) {
      const ids = await this.idsOf(this.sortWalkQuery(search, sort.attributeId, descending, offset, limit));
      if (ids.length === limit || offset + ids.length === total) return { total, ids };
    }
    return { total, ids: await this.idsOf(this.pageQuery(search, sort, descending, offset, limit)) };
  }

  /**
   * One page in the order of `asset_sort_numbers (attribute_id, value, asset_id)`: STRAIGHT_JOIN makes
   * MySQL read that index first, in order, and probe each asset's conditions, stopping at the LIMIT.
   * Public for EXPLAIN in the benchmark.
   */
  sortWalkQuery(
    search: CompiledFilter,
    attributeId: number,
    descending: boolean,
    offset: number,
    limit: number,
  ): SelectQueryBuilder<object> {
    const direction = descending ? 'DESC' : 'ASC';
    const query = this.dataSource
      .createQueryBuilder()
      .select('STRAIGHT_JOIN a.id', 'id')
      .from('asset_sort_numbers', 'sn')
      .innerJoin('assets', 'a', 'a.id = sn.asset_id')
      .where('sn.attribute_id = :sortWalkAttributeId', { sortWalkAttributeId: attributeId });
    for (const condition of search.where) query.andWhere(condition);
    return query
      .setParameters(search.params)
      .orderBy('sn.value', direction)
      .addOrderBy('sn.asset_id', direction)
      .offset(offset)
      .limit(limit);
  }

  async count(search: CompiledFilter): Promise<number> {
    const row: { total: Id } | undefined = await this.base(search).select('COUNT(*)', 'total').getRawOne();
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
  ): SelectQueryBuilder<object> {
    const direction = descending ? 'DESC' : 'ASC';
    const query = this.base(search).select('a.id', 'id');
    if (sort.kind === 'addedAt') query.orderBy('a.created_at', direction);
    if (sort.kind === 'modifiedAt') query.orderBy('a.updated_at', direction);
    if (sort.kind === 'addedBy') {
      query.addSelect(usernameRankSql(sort.userIds), 'sortKey');
      query.orderBy('sortKey', direction);
    }
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
          'asset_attribute_values',
          'sv',
          "sv.asset_id = a.id AND sv.attribute_id = :sortAttributeId AND sv.language = ''",
          { sortAttributeId: sort.attributeId },
        );
      }
      // Assets without a value come last in either direction.
      query
        .addSelect('CASE WHEN sv.value IS NULL THEN 1 ELSE 0 END', 'sortMissing')
        .addSelect('sv.value', 'sortKey')
        .orderBy('sortMissing', 'ASC')
        .addOrderBy('sortKey', direction);
    }
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
      this.dataSource
        .getRepository(AssetAttributeValueEntity)
        .findBy({ assetId: In(ids), language: In(languages) }),
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

  /** An upper bound of the number of assets, read from the primary key at no cost. */
  private async maxAssetId(): Promise<number> {
    const row: { maxId: Id | null } | undefined = await this.dataSource
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
  };
}

function toCounts(rows: Array<{ itemId: Id; assetCount: Id }>): Map<number, number> {
  return new Map(rows.map((row) => [Number(row.itemId), Number(row.assetCount)]));
}
