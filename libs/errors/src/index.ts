export * from './domain-errors';
export * from './unavailable';
