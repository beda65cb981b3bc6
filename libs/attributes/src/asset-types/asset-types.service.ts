import { Injectable } from '@nestjs/common';
import { UnknownResource } from '@dam/errors';
import { AssetType } from './asset-type';
import { AssetTypesRepository } from './asset-types.repository';

/**
 * The seeded asset types (File, Image, Video, Audio). Readable by anyone signed in whether or not
 * DAM_ASSET_TYPES_ENABLED is set; that flag only decides whether creating an asset requires one.
 */
@Injectable()
export class AssetTypesService {
  constructor(private readonly assetTypes: AssetTypesRepository) {}

  async list(): Promise<AssetType[]> {
    return (await this.assetTypes.findAll()).map(toAssetType);
  }

  async get(id: number): Promise<AssetType> {
    const assetType = await this.assetTypes.findById(id);
    if (assetType === null) throw new UnknownResource(`asset type ${id} does not exist`);
    return toAssetType(assetType);
  }

  async exists(id: number): Promise<boolean> {
    return (await this.assetTypes.findById(id)) !== null;
  }
}

function toAssetType({ id, name }: AssetType): AssetType {
  return { id, name };
}
