export * from './rate-counters';
export * from './token-rate-limit';
