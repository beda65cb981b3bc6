export * from './audit.module';
export * from './audit.service';
export * from './audit.mapper';
export * from './audit-recorder';
