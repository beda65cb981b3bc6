// What the rows of `webhooks` and `webhook_deliveries` hold, and how they are read.
import { dateOfDatetime } from '@dam/core';
import { DataSource } from 'typeorm';

export const WEBHOOKS = 'webhooks';
export const DELIVERIES = 'webhook_deliveries';
/** Named, since TypeORM leaves out the column list of a multi-row insert into a table without an entity. */
export const DELIVERY_COLUMNS = [
  'webhook_id',
  'event_id',
  'event_type',
  'body',
  'status',
  'attempts',
  'last_status_code',
  'last_error',
  'next_attempt_at',
  'last_attempt_at',
  'claimed_until',
  'claim_token',
  'created_at',
];

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface Webhook {
  id: number;
  url: string;
  events: string[];
  description: string | null;
  secret: string;
  enabled: boolean;
  disabledReason: string | null;
  disabledAt: Date | null;
  failingSince: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface Delivery {
  id: number;
  webhookId: number;
  eventId: string;
  eventType: string;
  body: string;
  status: DeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  createdAt: Date;
}

export interface NewDelivery {
  webhookId: number;
  eventId: string;
  eventType: string;
  body: string;
}

export type Raw = Record<string, unknown>;

/** The columns of `webhooks` that toWebhook reads, as `w`. */
export function selectWebhooks(dataSource: DataSource) {
  return dataSource
    .createQueryBuilder()
    .select([
      'w.id AS id',
      'w.url AS url',
      'w.events AS events',
      'w.description AS description',
      'w.secret AS secret',
      'w.enabled AS enabled',
      'w.disabled_reason AS disabled_reason',
      'w.disabled_at AS disabled_at',
      'w.failing_since AS failing_since',
      'w.created_at AS created_at',
      'w.updated_at AS updated_at',
    ])
    .from(WEBHOOKS, 'w');
}

/** The columns of `webhook_deliveries` that toDelivery reads, as `d`. */
export function selectDeliveries(dataSource: DataSource) {
  return dataSource
    .createQueryBuilder()
    .select([
      'd.id AS id',
      'd.webhook_id AS webhook_id',
      'd.event_id AS event_id',
      'd.event_type AS event_type',
      'd.body AS body',
      'd.status AS status',
      'd.attempts AS attempts',
      'd.last_status_code AS last_status_code',
      'd.last_error AS last_error',
      'd.next_attempt_at AS next_attempt_at',
      'd.last_attempt_at AS last_attempt_at',
      'd.created_at AS created_at',
    ])
    .from(DELIVERIES, 'd');
}

export function toWebhook(row: Raw): Webhook {
  return {
    id: Number(row.id),
    url: String(row.url),
    events: parseEvents(row.events),
    description: row.description === null || row.description === undefined ? null : String(row.description),
    secret: String(row.secret),
    enabled: toBoolean(row.enabled),
    disabledReason: row.disabled_reason === null ? null : String(row.disabled_reason),
    disabledAt: toDate(row.disabled_at),
    failingSince: toDate(row.failing_since),
    createdAt: toDate(row.created_at) ?? new Date(0),
    updatedAt: toDate(row.updated_at) ?? new Date(0),
  };
}

export function toDelivery(row: Raw): Delivery {
  return {
    id: Number(row.id),
    webhookId: Number(row.webhook_id),
    eventId: String(row.event_id),
    eventType: String(row.event_type),
    body: String(row.body),
    status: String(row.status) as DeliveryStatus,
    attempts: Number(row.attempts),
    lastStatusCode: row.last_status_code === null ? null : Number(row.last_status_code),
    lastError: row.last_error === null ? null : String(row.last_error),
    nextAttemptAt: toDate(row.next_attempt_at),
    lastAttemptAt: toDate(row.last_attempt_at),
    createdAt: toDate(row.created_at) ?? new Date(0),
  };
}

export function parseEvents(raw: unknown): string[] {
  try {
    const parsed: unknown = JSON.parse(String(raw));
    return Array.isArray(parsed) ? parsed.map(String) : [];
  } catch {
    return [];
  }
}

export function toBoolean(raw: unknown): boolean {
  return raw === true || raw === 1 || raw === '1' || raw === 'true';
}

/** A DATETIME read raw (dateOfDatetime), null when the row has none. */
function toDate(raw: unknown): Date | null {
  if (raw === null || raw === undefined) return null;
  return dateOfDatetime(raw instanceof Date ? raw : String(raw));
}
