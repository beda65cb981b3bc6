import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AssetTypeEntity } from '../entities/asset-type.entity';

@Injectable()
export class AssetTypesRepository {
  constructor(@InjectRepository(AssetTypeEntity) private readonly assetTypes: Repository<AssetTypeEntity>) {}

  findAll(): Promise<AssetTypeEntity[]> {
    return this.assetTypes.find({ order: { id: 'ASC' } });
  }

  findById(id: number): Promise<AssetTypeEntity | null> {
    return this.assetTypes.findOneBy({ id });
  }
}
