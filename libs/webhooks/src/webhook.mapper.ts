import { Injectable } from '@nestjs/common';
import { UrlService, xmlMapping } from '@dam/http';
import { Delivery, Webhook } from './webhooks.repository';

/** `GET /rest/admin/webhooks/{id}`. `url` is the target (as sent); `self` is this webhook's own URL. */
export interface WebhookRepresentation {
  id: number;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  /** Why it was disabled (a day of failed deliveries, or an admin), while it is. */
  disabledReason: string | null;
  disabledAt: string | null;
  /** When the current streak of failed deliveries began, while there is one. */
  failingSince: string | null;
  createdAt: string;
  updatedAt: string;
  self: string;
  deliveriesUrl: string;
  /** Only in the answers of `POST` (create) and `POST .../secret` (rotate): shown once. */
  secret?: string;
}

/** An item of `GET /rest/admin/webhooks/{id}/deliveries`. */
export interface DeliveryRepresentation {
  id: number;
  /** The event's id: the `webhook-id` header of every attempt. */
  eventId: string;
  event: string;
  status: string;
  attempts: number;
  lastResponseCode: number | null;
  lastError: string | null;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
  webhookUrl: string;
}

export const WEBHOOK_XML = xmlMapping('webhook', { events: 'event' });
export const DELIVERY_XML = xmlMapping('delivery');

@Injectable()
export class WebhookMapper {
  constructor(private readonly urls: UrlService) {}

  listUrl(): string {
    return this.urls.rest('admin', 'webhooks');
  }

  instanceUrl(id: number): string {
    return this.urls.rest('admin', 'webhooks', id);
  }

  deliveriesUrl(id: number): string {
    return this.urls.rest('admin', 'webhooks', id, 'deliveries');
  }

  toWebhook(webhook: Webhook, withSecret = false): WebhookRepresentation {
    return {
      id: webhook.id,
      url: webhook.url,
      events: webhook.events,
      description: webhook.description,
      enabled: webhook.enabled,
      disabledReason: webhook.enabled ? null : webhook.disabledReason,
      disabledAt: webhook.enabled ? null : iso(webhook.disabledAt),
      failingSince: iso(webhook.failingSince),
      createdAt: webhook.createdAt.toISOString(),
      updatedAt: webhook.updatedAt.toISOString(),
      self: this.instanceUrl(webhook.id),
      deliveriesUrl: this.deliveriesUrl(webhook.id),
      ...(withSecret ? { secret: webhook.secret } : {}),
    };
  }

  toDelivery(delivery: Delivery): DeliveryRepresentation {
    return {
      id: delivery.id,
      eventId: delivery.eventId,
      event: delivery.eventType,
      status: delivery.status,
      attempts: delivery.attempts,
      lastResponseCode: delivery.lastStatusCode,
      lastError: delivery.lastError,
      lastAttemptAt: iso(delivery.lastAttemptAt),
      nextAttemptAt: delivery.status === 'pending' ? iso(delivery.nextAttemptAt) : null,
      createdAt: delivery.createdAt.toISOString(),
      webhookUrl: this.instanceUrl(delivery.webhookId),
    };
  }
}

function iso(date: Date | null): string | null {
  return date === null ? null : date.toISOString();
}
