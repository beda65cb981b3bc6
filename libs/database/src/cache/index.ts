export * from './cache-generations';
export * from './generation-cached';
