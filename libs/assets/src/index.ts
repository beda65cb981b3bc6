export * from './asset-approval-steps';
export * from './asset-changes';
export * from './asset-content-writes.service';
export * from './asset-errors';
export * from './asset-ports.module';
export * from './asset-reader.service';
export * from './asset.mapper';
export * from './assets.module';
export * from './attribute-values';
export * from './ports/asset-edit-locks.port';
export * from './ports/asset-filter';
export * from './ports/asset-queries.port';
export * from './ports/asset-state';
export { AssetQueries } from './queries/asset-queries.service';
export * from './rules/approval-state';
export * from './rules/asset-permissions';
export * from './rules/asset-visibility';
export { CreateAssetDto } from './dto/create-asset.request';
export type { CreateAssetRequest } from './dto/create-asset.request';
export { UpdateAssetDto } from './dto/update-asset.request';
export type { UpdateAssetRequest } from './dto/update-asset.request';
export * from './events/asset-events';
export * from './trash/asset-snapshot';
// The fills of assets' derived tables: the migrations that made the tables run them, and the test fixtures.
export {
  FACET_TALLIES,
  recountAssetCategorySets,
  recountAssetFacetTallies,
  recountAssetLevelSets,
} from './tallies/asset-level-sets';
export type { RunQuery } from './tallies/asset-level-sets';
export {
  recountAssetWordFacetTallies,
  recountAssetWordTallies,
  WORD_FACET_TALLIES,
  WORD_TALLIES,
} from './tallies/asset-word-tallies';
export { applyPlannerStatistics, REFERENCE_STATISTICS } from './planner-statistics/sqlite-planner-statistics';
