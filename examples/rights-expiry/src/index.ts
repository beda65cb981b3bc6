export * from './rights-expiry.module';
export * from './rights-expiry.events';
export type { RightsExpiryOptions } from './rights-expiry.options';
export type { RightsRepresentation } from './rights-expiry.controller';
export { RIGHTS_EXPIRY_MIGRATIONS } from './rights-expiry.migrations';
