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

/** All TypeORM access of asset search: counting and paging ids, and loading a page of assets at once. */
@Injectable()
export class AssetSearchRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

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
    const rows: Array<{ id: Id }> = await this.pageQuery(
      search,
      sort,
      descending,
      offset,
      limit,
    ).getRawMany();
    return rows.map((row) => Number(row.id));
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
      query.leftJoin(
        'asset_attribute_values',
        'sv',
        "sv.asset_id = a.id AND sv.attribute_id = :sortAttributeId AND sv.language = ''",
        { sortAttributeId: sort.attributeId },
      );
      query
        .addSelect(sort.numeric ? this.numeric('sv.value') : 'sv.value', 'sortKey')
        .orderBy('sortKey', direction);
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

  private numeric(expression: string): string {
    return this.dataSource.options.type === 'mysql'
      ? `CAST(${expression} AS DECIMAL(65, 10))`
      : `CAST(${expression} AS REAL)`;
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
