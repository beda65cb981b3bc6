import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { AssetAttributeValueEntity } from './entities/asset-attribute-value.entity';
import {
  AssetAccessLevelEntity,
  AssetCategoryEntity,
  AssetParentEntity,
} from './entities/asset-links.entity';
import { AssetPendingEditEntity } from './entities/asset-pending-edit.entity';
import { AssetEntity } from './entities/asset.entity';
import { PlacedAsset } from './ports/asset-state';
import { StoredState, toRecord } from './queries/asset-queries.repository';
import { hasPendingEdit } from './rules/approval-state';

export interface NewAsset {
  submitted: boolean;
  uploadPending: boolean;
  assetTypeId: number | null;
  addedByUserId: number;
  accessLevelIds: number[];
}

/** Reads of one asset and its placement; creation and deletion. */
@Injectable()
export class AssetsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async findPlaced(id: number): Promise<PlacedAsset | null> {
    const asset = await this.dataSource.getRepository(AssetEntity).findOneBy({ id });
    if (asset === null) return null;
    const levels = await this.dataSource
      .getRepository(AssetAccessLevelEntity)
      .find({ where: { assetId: id }, order: { accessLevelId: 'ASC' } });
    return { asset: toRecord(asset), accessLevelIds: levels.map((level) => level.accessLevelId) };
  }

  /** The rest of an asset's state, with attribute values in the given storage languages only. */
  async loadState(placed: PlacedAsset, languages: string[]): Promise<StoredState> {
    const assetId = placed.asset.id;
    const [categories, parents, values, editRow] = await Promise.all([
      this.dataSource
        .getRepository(AssetCategoryEntity)
        .find({ where: { assetId }, order: { categoryId: 'ASC' } }),
      this.dataSource
        .getRepository(AssetParentEntity)
        .find({ where: { assetId }, order: { parentId: 'ASC' } }),
      this.dataSource.getRepository(AssetAttributeValueEntity).findBy({ assetId, language: In(languages) }),
      this.dataSource.getRepository(AssetPendingEditEntity).existsBy({ assetId }),
    ]);
    return {
      ...placed,
      categoryIds: categories.map((row) => row.categoryId),
      parentIds: parents.map((row) => row.parentId),
      values: values.map(({ attributeId, language, value }) => ({ attributeId, language, value })),
      hasPendingEdit: hasPendingEdit(placed.asset, editRow),
    };
  }

  async create(asset: NewAsset): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const now = new Date();
      const saved = await manager.getRepository(AssetEntity).save(
        Object.assign(new AssetEntity(), {
          submitted: asset.submitted,
          uploadPending: asset.uploadPending,
          contentPending: false,
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
}
