import { Entity, PrimaryColumn } from 'typeorm';

@Entity('asset_access_levels')
export class AssetAccessLevelEntity {
  @PrimaryColumn({ name: 'asset_id', type: 'integer' })
  assetId: number;

  @PrimaryColumn({ name: 'access_level_id', type: 'integer' })
  accessLevelId: number;
}

@Entity('asset_categories')
export class AssetCategoryEntity {
  @PrimaryColumn({ name: 'asset_id', type: 'integer' })
  assetId: number;

  @PrimaryColumn({ name: 'category_id', type: 'integer' })
  categoryId: number;
}

@Entity('asset_parents')
export class AssetParentEntity {
  @PrimaryColumn({ name: 'asset_id', type: 'integer' })
  assetId: number;

  @PrimaryColumn({ name: 'parent_id', type: 'integer' })
  parentId: number;
}
