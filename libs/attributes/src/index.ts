export * from './attribute-types';
export * from './attributes-catalog';
export * from './attributes.module';
