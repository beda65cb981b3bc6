export * from './logging';
export * from './metrics';
export * from './observability.module';
export { requestIdOf, routePatternOf } from './traffic';
