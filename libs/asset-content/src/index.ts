export * from './asset-content.module';
export * from './renditions.service';
export type { AssetVersionRepresentation } from './asset-downloads.service';
