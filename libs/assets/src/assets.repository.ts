import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { AssetAttributeValueEntity } from './entities/asset-attribute-value.entity';
import {
  AssetAccessLevelEntity,
  AssetCategoryEntity,
  AssetParentEntity,
} from './entities/asset-links.entity';
import { AssetEntity } from './entities/asset.entity';

/** An asset with the access levels every permission decision needs. */
export interface PlacedAsset {
  asset: AssetEntity;
  accessLevelIds: number[];
}

/** Everything the representation shows beyond the core row. */
export interface AssetState extends PlacedAsset {
  categoryIds: number[];
  parentIds: number[];
  values: AssetAttributeValueEntity[];
  hasPendingEdit: boolean;
  addedByUsername: string | null;
}

export interface LevelFacts {
  id: number;
  hasChildren: boolean;
  isAlwaysAssignable: boolean;
}

export interface NewAsset {
  submitted: boolean;
  uploadPending: boolean;
  assetTypeId: number | null;
  addedByUserId: number;
  accessLevelIds: number[];
}

/** A SQL condition on the `assets` alias `a`, such as the visibility rule of @dam/access. */
export interface AssetCondition {
  sql: string;
  params: Record<string, unknown>;
}

/** Reads of assets, their placement and the things they point at; creation and deletion. */
@Injectable()
export class AssetsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async findPlaced(id: number): Promise<PlacedAsset | null> {
    const asset = await this.dataSource.getRepository(AssetEntity).findOneBy({ id });
    if (asset === null) return null;
    const levels = await this.dataSource
      .getRepository(AssetAccessLevelEntity)
      .find({ where: { assetId: id }, order: { accessLevelId: 'ASC' } });
    return { asset, accessLevelIds: levels.map((level) => level.accessLevelId) };
  }

  /** The rest of an asset's state, with attribute values in the given storage languages only. */
  async loadState(placed: PlacedAsset, languages: string[]): Promise<AssetState> {
    const assetId = placed.asset.id;
    const [categories, parents, values, pending, username] = await Promise.all([
      this.dataSource
        .getRepository(AssetCategoryEntity)
        .find({ where: { assetId }, order: { categoryId: 'ASC' } }),
      this.dataSource
        .getRepository(AssetParentEntity)
        .find({ where: { assetId }, order: { parentId: 'ASC' } }),
      this.dataSource.getRepository(AssetAttributeValueEntity).findBy({ assetId, language: In(languages) }),
      this.hasPendingParts(assetId),
      this.usernameOf(placed.asset.addedByUserId),
    ]);
    return {
      ...placed,
      categoryIds: categories.map((row) => row.categoryId),
      parentIds: parents.map((row) => row.parentId),
      values,
      hasPendingEdit: pending,
      addedByUsername: username,
    };
  }

  /**
   * Whether any part of the asset awaits edit approval: attribute edits, or a file uploaded with
   * edit-with-approval (`asset_files.is_pending`, written by the content area). One query either way.
   */
  private async hasPendingParts(assetId: number): Promise<boolean> {
    const rows: Array<{ pending: number | string }> = await this.dataSource.query(
      'SELECT (SELECT COUNT(*) FROM asset_pending_edits WHERE asset_id = ?) + ' +
        '(SELECT COUNT(*) FROM asset_files WHERE asset_id = ? AND is_pending = ?) AS pending',
      [assetId, assetId, true],
    );
    return Number(rows[0]?.pending ?? 0) > 0;
  }

  async levelFacts(ids: number[]): Promise<LevelFacts[]> {
    if (ids.length === 0) return [];
    const rows: Array<{ id: number | string; always: number | string | boolean; children: number | string }> =
      await this.dataSource
        .createQueryBuilder()
        .select('l.id', 'id')
        .addSelect('l.is_always_assignable', 'always')
        .addSelect('(SELECT COUNT(*) FROM access_levels c WHERE c.parent_id = l.id)', 'children')
        .from('access_levels', 'l')
        .where('l.id IN (:...ids)', { ids })
        .getRawMany();
    return rows.map((row) => ({
      id: Number(row.id),
      isAlwaysAssignable: Boolean(Number(row.always)),
      hasChildren: Number(row.children) > 0,
    }));
  }

  async existingCategoryIds(ids: number[]): Promise<number[]> {
    return this.existingIds('categories', ids);
  }

  async assetTypeExists(id: number): Promise<boolean> {
    return (await this.existingIds('asset_types', [id])).length > 0;
  }

  /** Which of `ids` name assets that satisfy `condition` (all existing ones when it is undefined). */
  async existingAssetIds(ids: number[], condition: AssetCondition | undefined): Promise<number[]> {
    if (ids.length === 0) return [];
    const query = this.dataSource
      .createQueryBuilder()
      .select('a.id', 'id')
      .from('assets', 'a')
      .where('a.id IN (:...ids)', { ids });
    if (condition !== undefined) query.andWhere(condition.sql, condition.params);
    const rows: Array<{ id: number | string }> = await query.getRawMany();
    return rows.map((row) => Number(row.id));
  }

  async create(asset: NewAsset): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const now = new Date();
      const saved = await manager.getRepository(AssetEntity).save(
        Object.assign(new AssetEntity(), {
          submitted: asset.submitted,
          uploadPending: asset.uploadPending,
          archived: false,
          type: 'File',
          assetTypeId: asset.assetTypeId,
          addedByUserId: asset.addedByUserId,
          createdAt: now,
          updatedAt: now,
        }),
      );
      await manager
        .getRepository(AssetAccessLevelEntity)
        .insert(asset.accessLevelIds.map((accessLevelId) => ({ assetId: saved.id, accessLevelId })));
      return saved.id;
    });
  }

  /** Values, placements, parents and pending edits go with it (foreign keys cascade). */
  async delete(id: number): Promise<void> {
    await this.dataSource.getRepository(AssetEntity).delete({ id });
  }

  private async usernameOf(userId: number | null): Promise<string | null> {
    if (userId === null) return null;
    const rows: Array<{ username: string }> = await this.dataSource
      .createQueryBuilder()
      .select('u.username', 'username')
      .from('users', 'u')
      .where('u.id = :userId', { userId })
      .getRawMany();
    return rows[0]?.username ?? null;
  }

  private async existingIds(table: 'categories' | 'asset_types', ids: number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows: Array<{ id: number | string }> = await this.dataSource
      .createQueryBuilder()
      .select('t.id', 'id')
      .from(table, 't')
      .where('t.id IN (:...ids)', { ids })
      .getRawMany();
    return rows.map((row) => Number(row.id));
  }
}
