export * from './asset-search.repository';
export * from './keyword-query';
export * from './search-conditions';
export * from './search-criteria';
export * from './search-planner.service';
export * from './search.module';
