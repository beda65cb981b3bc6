export * from './asset-content.module';
export * from './renditions.service';
export { AssetUploadsService } from './asset-uploads.service';
export type { ContentFrom, ContentSource, StoredContent } from './asset-uploads.service';
export type { AssetVersionRepresentation } from './asset-downloads.service';
export * from './events/content-events';
export * from './downloadable-contents';
