export * from './publishing.module';
export { PUBLISHING_ACTION_XML, PUBLISHING_LOG_XML } from './publishing-action.mapper';
