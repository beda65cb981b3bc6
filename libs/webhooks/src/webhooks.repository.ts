import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { wholeSeconds } from '@dam/core';
import { InTransaction } from '@dam/events';
import { DataSource } from 'typeorm';
import {
  DELIVERIES,
  DELIVERY_COLUMNS,
  Delivery,
  DeliveryStatus,
  NewDelivery,
  parseEvents,
  Raw,
  selectDeliveries,
  selectWebhooks,
  toBoolean,
  toDelivery,
  toWebhook,
  Webhook,
  WEBHOOKS,
} from './webhook-rows';

export type { Delivery, DeliveryStatus, NewDelivery, Webhook } from './webhook-rows';

/** All SQL on `webhooks` and `webhook_deliveries` (this lib's tables). */
@Injectable()
export class WebhooksRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(
    webhook: {
      url: string;
      events: string[];
      description: string | null;
      secret: string;
    },
    within: InTransaction,
  ): Promise<number> {
    const now = wholeSeconds(new Date());
    return this.dataSource.transaction(async (manager) => {
      const result = await manager
        .createQueryBuilder()
        .insert()
        .into(WEBHOOKS)
        .values({
          url: webhook.url,
          events: JSON.stringify(webhook.events),
          description: webhook.description,
          secret: webhook.secret,
          enabled: true,
          disabled_reason: null,
          disabled_at: null,
          failing_since: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      const raw: unknown = result.raw;
      const id = Number(
        typeof raw === 'object' && raw !== null ? (raw as { insertId?: unknown }).insertId : raw,
      );
      await within(manager, id);
      return id;
    });
  }

  async get(id: number): Promise<Webhook | undefined> {
    const row = await selectWebhooks(this.dataSource).where('w.id = :id', { id }).getRawOne<Raw>();
    return row === undefined ? undefined : toWebhook(row);
  }

  async page(offset: number, limit: number | undefined): Promise<{ webhooks: Webhook[]; total: number }> {
    const query = selectWebhooks(this.dataSource).orderBy('w.id', 'ASC');
    if (limit !== undefined) query.offset(offset).limit(limit);
    const [rows, total] = await Promise.all([query.getRawMany<Raw>(), this.count(WEBHOOKS)]);
    return { webhooks: rows.map(toWebhook), total };
  }

  /** The enabled webhooks (id and the events they want), for the fan-out of new events. */
  async enabled(): Promise<Array<Pick<Webhook, 'id' | 'events'>>> {
    const rows = await this.dataSource
      .createQueryBuilder()
      .select(['w.id AS id', 'w.events AS events'])
      .from(WEBHOOKS, 'w')
      .where('w.enabled = :enabled', { enabled: true })
      .getRawMany<Raw>();
    return rows.map((row) => ({ id: Number(row.id), events: parseEvents(row.events) }));
  }

  async update(
    id: number,
    changes: {
      url?: string;
      events?: string[];
      description?: string | null;
      enabled?: boolean;
      secret?: string;
    },
    within: InTransaction,
  ): Promise<boolean> {
    const set: Record<string, unknown> = { updated_at: wholeSeconds(new Date()) };
    if (changes.url !== undefined) set.url = changes.url;
    if (changes.events !== undefined) set.events = JSON.stringify(changes.events);
    if (changes.description !== undefined) set.description = changes.description;
    if (changes.secret !== undefined) set.secret = changes.secret;
    if (changes.enabled !== undefined) {
      set.enabled = changes.enabled;
      if (changes.enabled)
        Object.assign(set, { disabled_reason: null, disabled_at: null, failing_since: null });
      else
        Object.assign(set, {
          disabled_reason: 'disabled by an administrator',
          disabled_at: wholeSeconds(new Date()),
        });
    }
    return this.dataSource.transaction(async (manager) => {
      const result = await manager
        .createQueryBuilder()
        .update(WEBHOOKS)
        .set(set)
        .where('id = :id', { id })
        .execute();
      if ((result.affected ?? 0) === 0) return false;
      await within(manager, id);
      return true;
    });
  }

  /** Deletes the webhook; its deliveries go with it (foreign key cascade). */
  async delete(id: number, within: InTransaction): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const result = await manager
        .createQueryBuilder()
        .delete()
        .from(WEBHOOKS)
        .where('id = :id', { id })
        .execute();
      if ((result.affected ?? 0) === 0) return false;
      await within(manager, id);
      return true;
    });
  }

  /** Inserts deliveries; one already there (same webhook and event, from another instance) is skipped. */
  async insertDeliveries(deliveries: NewDelivery[], now: Date): Promise<void> {
    for (let i = 0; i < deliveries.length; i += 100) {
      await this.dataSource
        .createQueryBuilder()
        .insert()
        .into(DELIVERIES, DELIVERY_COLUMNS)
        .values(
          deliveries.slice(i, i + 100).map((delivery) => ({
            webhook_id: delivery.webhookId,
            event_id: delivery.eventId,
            event_type: delivery.eventType,
            body: delivery.body,
            status: 'pending',
            attempts: 0,
            last_status_code: null,
            last_error: null,
            next_attempt_at: now,
            last_attempt_at: null,
            claimed_until: null,
            claim_token: null,
            created_at: now,
          })),
        )
        .orIgnore()
        .execute();
    }
  }

  /**
   * Claims up to `limit` due pending deliveries for `leaseMs` with `token` (one conditional UPDATE: two
   * instances never hold the same delivery) and returns them with their webhook's target and secret.
   */
  async claimDue(
    token: string,
    limit: number,
    leaseMs: number,
    now: Date,
  ): Promise<Array<Delivery & { url: string; secret: string; enabled: boolean }>> {
    const until = new Date(Math.ceil((now.getTime() + leaseMs) / 1000) * 1000);
    const due =
      "status = 'pending' AND next_attempt_at <= :now AND (claimed_until IS NULL OR claimed_until < :now)";
    const claim = this.dataSource
      .createQueryBuilder()
      .update(DELIVERIES)
      .set({ claim_token: token, claimed_until: until });
    const count = Math.max(1, Math.floor(limit));
    if (this.dataSource.options.type === 'mysql') {
      await claim.where(due, { now }).orderBy('id', 'ASC').limit(count).execute();
    } else {
      await claim
        .where(`id IN (SELECT id FROM ${DELIVERIES} WHERE ${due} ORDER BY id LIMIT ${count})`, { now })
        .execute();
    }
    const rows = await selectDeliveries(this.dataSource)
      .addSelect(['w.url AS url', 'w.secret AS secret', 'w.enabled AS enabled'])
      .innerJoin(WEBHOOKS, 'w', 'w.id = d.webhook_id')
      .where('d.claim_token = :token', { token })
      .orderBy('d.id', 'ASC')
      .getRawMany<Raw>();
    return rows.map((row) => ({
      ...toDelivery(row),
      url: String(row.url),
      secret: String(row.secret),
      enabled: toBoolean(row.enabled),
    }));
  }

  /** Records an attempt of a delivery this instance holds (`token`), and lets go of it. */
  async recordAttempt(
    id: number,
    token: string,
    outcome: {
      status: DeliveryStatus;
      attempts: number;
      statusCode: number | null;
      error: string | null;
      nextAttemptAt: Date | null;
      at: Date;
    },
  ): Promise<void> {
    await this.dataSource
      .createQueryBuilder()
      .update(DELIVERIES)
      .set({
        status: outcome.status,
        attempts: outcome.attempts,
        last_status_code: outcome.statusCode,
        last_error: outcome.error === null ? null : outcome.error.slice(0, 500),
        next_attempt_at: outcome.nextAttemptAt,
        last_attempt_at: outcome.at,
        claimed_until: null,
        claim_token: null,
      })
      .where('id = :id AND claim_token = :token', { id, token })
      .execute();
  }

  /** A success ends the webhook's streak of failures. */
  async succeeded(webhookId: number): Promise<void> {
    await this.dataSource
      .createQueryBuilder()
      .update(WEBHOOKS)
      .set({ failing_since: null })
      .where('id = :id AND failing_since IS NOT NULL', { id: webhookId })
      .execute();
  }

  /** A failure starts a streak (or continues it); returns when the streak began. */
  async failed(webhookId: number, now: Date): Promise<Date | null> {
    await this.dataSource
      .createQueryBuilder()
      .update(WEBHOOKS)
      .set({ failing_since: now })
      .where('id = :id AND failing_since IS NULL', { id: webhookId })
      .execute();
    return (await this.get(webhookId))?.failingSince ?? null;
  }

  /** Disables the webhook with `reason` and fails its pending deliveries. */
  async disable(webhookId: number, reason: string, now: Date): Promise<void> {
    await this.dataSource
      .createQueryBuilder()
      .update(WEBHOOKS)
      .set({ enabled: false, disabled_reason: reason.slice(0, 500), disabled_at: now })
      .where('id = :id AND enabled = :enabled', { id: webhookId, enabled: true })
      .execute();
    // A pending delivery claimed meanwhile is failed when its claimer sees the endpoint disabled.
    await this.dataSource
      .createQueryBuilder()
      .update(DELIVERIES)
      .set({ status: 'failed', next_attempt_at: null, last_error: 'the endpoint was disabled' })
      .where("webhook_id = :id AND status = 'pending' AND claim_token IS NULL", { id: webhookId })
      .execute();
  }

  /** A webhook's deliveries, newest first. */
  async deliveries(
    webhookId: number,
    offset: number,
    limit: number,
  ): Promise<{ deliveries: Delivery[]; total: number }> {
    const [rows, total] = await Promise.all([
      selectDeliveries(this.dataSource)
        .where('d.webhook_id = :webhookId', { webhookId })
        .orderBy('d.id', 'DESC')
        .offset(offset)
        .limit(limit)
        .getRawMany<Raw>(),
      this.count(DELIVERIES, 'webhook_id = :webhookId', { webhookId }),
    ]);
    return { deliveries: rows.map(toDelivery), total };
  }

  private async count(table: string, where?: string, parameters?: Record<string, unknown>): Promise<number> {
    const query = this.dataSource.createQueryBuilder().select('COUNT(*)', 'count').from(table, 't');
    if (where !== undefined) query.where(where, parameters);
    const row = await query.getRawOne<{ count: number | string }>();
    return Number(row?.count ?? 0);
  }
}
