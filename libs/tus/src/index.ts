export * from './tus.module';
export { TusService } from './tus.service';
export type { PurgeHooks } from './tus.service';
