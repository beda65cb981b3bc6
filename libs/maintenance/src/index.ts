export * from './maintenance.module';
export * from './jobs.service';
export * from './job.mapper';
