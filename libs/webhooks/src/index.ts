export * from './webhooks.module';
export { WebhooksService } from './webhooks.service';
export { WebhookDispatcher, bodyOf } from './webhook-dispatcher';
export { refusedRangeOf } from './address-ranges';
export { matchesAny } from './webhook-events';
export { failureWindowMs, retryDelayMs, MAX_ATTEMPTS } from './retry-schedule';
export type { WebhookRepresentation, DeliveryRepresentation } from './webhook.mapper';
