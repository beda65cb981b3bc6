export * from './asset-types/asset-type';
export * from './asset-types/asset-types.service';
export * from './attribute-types';
export * from './attributes-catalog';
export * from './attributes.module';
