export * from './access-levels.module';
export * from './access-level-ports.module';
export * from './access-levels.service';
export * from './access-level.mapper';
export * from './access-level-rules';
export * from './ports/level-asset-counts.port';
export * from './events/access-level-events';
