export * from './maintenance.module';
export * from './jobs.service';
export * from './job.mapper';
export * from './dto/run-query.dto';
