export * from './temp-chunked-files.module';
export * from './temp-chunked-files.service';
export * from './temp-chunked-file-errors';
export * from './temp-chunked-file.mapper';
export * from './temp-file-purge.job';
export * from './temp-file-id';
