export * from './publishing.module';
