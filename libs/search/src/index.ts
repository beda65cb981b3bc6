export * from './asset-search.service';
export * from './asset-summary.mapper';
export * from './keyword-query';
export * from './search-criteria';
export * from './search-planner.service';
export * from './search.module';
