export * from './domain-event';
export * from './domain-events';
export * from './field-changes';
