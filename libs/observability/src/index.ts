export * from './logging';
export * from './metrics';
export * from './observability.module';
export { measureTraffic, requestIdOf, routePatternOf } from './traffic';
