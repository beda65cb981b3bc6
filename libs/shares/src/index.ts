export * from './shares.module';
export * from './events/share-events';
export { SHARE_XML, PUBLIC_SHARE_XML } from './share.mapper';
export type { ShareRepresentation, PublicShareRepresentation } from './share.mapper';
export { safeEntryName, uniqueEntryNames } from './zip/zip-names';
export { zipStream } from './zip/zip-stream';
export type { ZipOutput, ZipSource } from './zip/zip-stream';
