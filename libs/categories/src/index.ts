export * from './categories.module';
export * from './categories.service';
export * from './category.mapper';
export * from './ports/category-asset-counts.port';
export * from './events/category-events';
