export * from './config/app-config';
export * from './context/request-context';
export * from './text/search-tokens';
export * from './tree/tree';
export * from './config/config.module';
