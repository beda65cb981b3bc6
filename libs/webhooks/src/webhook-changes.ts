import { ActorRef, actorRef, EventType, FieldChanges, fieldChanges, SECRET_CHANGED } from '@dam/events';
import { UrlService } from '@dam/http';
import type { Webhook } from './webhook-rows';

/** The payload of every `webhook.*` event (docs/events.md). */
export interface WebhookEventData extends ActorRef {
  webhookId: number;
  webhookUrl: string;
}

export function webhookEventData(urls: UrlService, webhookId: number, actorId: number): WebhookEventData {
  return {
    webhookId,
    webhookUrl: urls.configured().rest('admin', 'webhooks', webhookId),
    ...actorRef(urls.configured(), actorId),
  };
}

export class WebhookCreated extends EventType<WebhookEventData>('webhook.created') {}

/** Its target, events, description or enabled flag changed, or its secret was rotated. */
export class WebhookUpdated extends EventType<WebhookEventData>('webhook.updated') {}

export class WebhookDeleted extends EventType<WebhookEventData>('webhook.deleted') {}

/** What a webhook write may set; `secret` is compared for being set, its value never kept. */
export type WebhookFields = Partial<Pick<Webhook, 'url' | 'events' | 'description' | 'enabled' | 'secret'>>;

/**
 * `{field: {before, after}}` of a webhook write (`before` undefined for a creation, `after` for a
 * deletion). A new signing secret is named, `secret: {before: null, after: null}`, never its value.
 */
export function webhookChanges(
  before: WebhookFields | undefined,
  after: WebhookFields | undefined,
): FieldChanges {
  const written = before === undefined || after === undefined ? after : { ...before, ...after };
  const changes = fieldChanges(before, written, ['url', 'events', 'description', 'enabled']);
  if (before !== undefined && after?.secret !== undefined) changes.secret = { ...SECRET_CHANGED };
  return changes;
}
