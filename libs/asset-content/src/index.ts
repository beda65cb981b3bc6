export * from './asset-content.module';
export * from './entities/asset-file.entity';
export * from './entities/asset-rendition.entity';
export * from './renditions.service';
export type { AssetVersionRepresentation } from './asset-downloads.service';
