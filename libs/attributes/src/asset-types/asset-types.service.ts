import { Injectable } from '@nestjs/common';
import { UnknownResource } from '@dam/platform';
import { AssetTypeEntity } from '../entities/asset-type.entity';
import { AssetTypesRepository } from './asset-types.repository';

/**
 * The seeded asset types (File, Image, Video, Audio). Readable by anyone signed in whether or not
 * DAM_ASSET_TYPES_ENABLED is set; that flag only decides whether creating an asset requires one.
 */
@Injectable()
export class AssetTypesService {
  constructor(private readonly assetTypes: AssetTypesRepository) {}

  list(): Promise<AssetTypeEntity[]> {
    return this.assetTypes.findAll();
  }

  async get(id: number): Promise<AssetTypeEntity> {
    const assetType = await this.assetTypes.findById(id);
    if (assetType === null) throw new UnknownResource(`asset type ${id} does not exist`);
    return assetType;
  }
}
