export * from './tus.module';
export { TusService } from './tus.service';
