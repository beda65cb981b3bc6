import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AssetAttributeValueEntity, AssetEntity, AssetState } from '@dam/assets';
import { DataSource, EntityManager, In, SelectQueryBuilder } from 'typeorm';

/** How results are ordered; ties are broken by id in the same direction. */
export type SearchSort =
  | { kind: 'id' }
  | { kind: 'column'; column: 'created_at' | 'updated_at' }
  | { kind: 'value'; attributeId: number; numeric: boolean }
  | { kind: 'addedBy' };

/** A search as SQL: conditions on the `assets` alias `a` (ANDed) and their named parameters. */
export interface SearchSql {
  where: string[];
  params: Record<string, unknown>;
}

export interface TreeNode {
  id: number;
  parentId: number | null;
}

type Id = number | string;

/**
 * The sort-index walk is used when it should read at most about this many index entries: a page at
 * offset `o` of a result matching `total` of `n` assets needs about `(o + limit) * n / total`.
 */
const SORT_WALK_LIMIT = 50_000;

/** All TypeORM access of asset search: counting and paging ids, and loading a page of assets at once. */
@Injectable()
export class AssetSearchRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The total and one page of ids. Count and page run side by side, except for a numeric sort on MySQL:
   * there the count comes first, and when the page is near the top of a result that is not too sparse
   * (see SORT_WALK_LIMIT), the page walks the sort index in order and stops after one page instead of
   * reading and sorting the value of every match. The walk only sees assets with a value; when it cannot
   * fill the page, the general query answers.
   */
  async page(
    search: SearchSql,
    sort: SearchSort,
    descending: boolean,
    offset: number,
    limit: number,
  ): Promise<{ total: number; ids: number[] }> {
    if (sort.kind !== 'value' || !sort.numeric || !this.isMysql()) {
      const [total, ids] = await Promise.all([
        this.count(search),
        this.pageIds(search, sort, descending, offset, limit),
      ]);
      return { total, ids };
    }
    const total = await this.count(search);
    if (offset >= total) return { total, ids: [] };
    if ((offset + limit) * (await this.maxAssetId()) <= SORT_WALK_LIMIT * total) {
      const ids = await this.ids(this.sortWalkQuery(search, sort.attributeId, descending, offset, limit));
      if (ids.length === limit || offset + ids.length === total) return { total, ids };
    }
    return { total, ids: await this.pageIds(search, sort, descending, offset, limit) };
  }

  /**
   * One page in the order of `asset_sort_numbers (attribute_id, value, asset_id)`: STRAIGHT_JOIN makes
   * MySQL read that index first, in order, and probe each asset's conditions, stopping at the LIMIT.
   */
  sortWalkQuery(search: SearchSql, attributeId: number, descending: boolean, offset: number, limit: number) {
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

  async count(search: SearchSql): Promise<number> {
    const row: { total: Id } | undefined = await this.base(search).select('COUNT(*)', 'total').getRawOne();
    return Number(row?.total ?? 0);
  }

  async pageIds(
    search: SearchSql,
    sort: SearchSort,
    descending: boolean,
    offset: number,
    limit: number,
  ): Promise<number[]> {
    return this.ids(this.pageQuery(search, sort, descending, offset, limit));
  }

  private async ids(query: SelectQueryBuilder<object>): Promise<number[]> {
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

  /** The query of one page of ids (public for EXPLAIN in the benchmark). */
  pageQuery(search: SearchSql, sort: SearchSort, descending: boolean, offset: number, limit: number) {
    const direction = descending ? 'DESC' : 'ASC';
    const query = this.base(search).select('a.id', 'id');
    if (sort.kind === 'column') query.orderBy(`a.${sort.column}`, direction);
    if (sort.kind === 'addedBy') {
      query.addSelect('(SELECT u.username FROM users u WHERE u.id = a.added_by_user_id)', 'sortKey');
      query.orderBy('sortKey', direction);
    }
    if (sort.kind === 'value') {
      if (sort.numeric) {
        query.leftJoin(
          'asset_sort_numbers',
          'sv',
          'sv.asset_id = a.id AND sv.attribute_id = :sortAttributeId',
          {
            sortAttributeId: sort.attributeId,
          },
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

  /** The state of each asset (in the order of `ids`), with values in the given storage languages only. */
  async loadStates(ids: number[], languages: string[]): Promise<AssetState[]> {
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
    const userIds = [
      ...new Set(assets.map((asset) => asset.addedByUserId).filter((id): id is number => id !== null)),
    ];
    const usernames = await this.usernames(userIds);
    const byId = new Map(assets.map((asset) => [asset.id, asset]));
    const valuesOf = new Map<number, AssetAttributeValueEntity[]>();
    for (const value of values) valuesOf.set(value.assetId, [...(valuesOf.get(value.assetId) ?? []), value]);
    const states: AssetState[] = [];
    for (const id of ids) {
      const asset = byId.get(id);
      if (asset === undefined) continue; // deleted between the id query and this one
      states.push({
        asset,
        accessLevelIds: levels.get(id) ?? [],
        categoryIds: categories.get(id) ?? [],
        parentIds: parents.get(id) ?? [],
        values: valuesOf.get(id) ?? [],
        hasPendingEdit: pending.has(id),
        addedByUsername: asset.addedByUserId === null ? null : (usernames.get(asset.addedByUserId) ?? null),
      });
    }
    return states;
  }

  async categoryTree(): Promise<TreeNode[]> {
    return this.tree('categories');
  }

  async accessLevelTree(): Promise<TreeNode[]> {
    return this.tree('access_levels');
  }

  /** The attributes of the first display attribute group, in their order there. */
  async displayAttributeIds(): Promise<number[]> {
    const rows: Array<{ attributeId: Id }> = await this.dataSource
      .createQueryBuilder()
      .select('m.attribute_id', 'attributeId')
      .from('display_attribute_group_attributes', 'm')
      .where(
        'm.group_id = (SELECT g.id FROM display_attribute_groups g ORDER BY g.display_order, g.id LIMIT 1)',
      )
      .orderBy('m.position')
      .addOrderBy('m.attribute_id')
      .getRawMany();
    return rows.map((row) => Number(row.attributeId));
  }

  /** `SELECT ... FROM assets a WHERE <search>`, for other areas that evaluate searches (publishing). */
  base(search: SearchSql, manager: EntityManager = this.dataSource.manager): SelectQueryBuilder<object> {
    const query = manager.createQueryBuilder().from('assets', 'a').where('1 = 1');
    for (const condition of search.where) query.andWhere(condition);
    return query.setParameters(search.params);
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

  private async usernames(ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows: Array<{ id: Id; username: string }> = await this.dataSource
      .createQueryBuilder()
      .select('u.id', 'id')
      .addSelect('u.username', 'username')
      .from('users', 'u')
      .where('u.id IN (:...ids)', { ids })
      .getRawMany();
    return new Map(rows.map((row) => [Number(row.id), row.username]));
  }

  private async tree(table: 'categories' | 'access_levels'): Promise<TreeNode[]> {
    const rows: Array<{ id: Id; parentId: Id | null }> = await this.dataSource
      .createQueryBuilder()
      .select('t.id', 'id')
      .addSelect('t.parent_id', 'parentId')
      .from(table, 't')
      .getRawMany();
    return rows.map((row) => ({
      id: Number(row.id),
      parentId: row.parentId === null ? null : Number(row.parentId),
    }));
  }
}
