export * from './domain-event';
export * from './domain-events';
