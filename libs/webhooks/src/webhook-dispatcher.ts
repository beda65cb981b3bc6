import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { AppConfig } from '@dam/core';
import { DomainEvents, OutboxEvent } from '@dam/events';
import { randomUUID } from 'node:crypto';
import { failureWindowMs, retryDelayMs } from './retry-schedule';
import { matchesAny } from './webhook-events';
import { WebhookSender } from './webhook-sender';
import { NewDelivery, WebhooksRepository } from './webhooks.repository';

/** Outbox events handed on per batch. */
const EVENT_BATCH = 100;
/** Deliveries attempted at once per batch. */
const DELIVERY_BATCH = 20;
/** Batches per tick at most, so one tick ends even under a flood (the next tick goes on). */
const MAX_BATCHES = 20;
/** An outbox claim lasts this long: an instance that dies holding it lets another take over after it. */
const OUTBOX_LEASE_MS = 30_000;

/**
 * Delivers webhooks from the outbox (DESIGN: docs/events.md, README "Webhooks"). Every instance whose
 * DAM_WEBHOOK_POLL_MS is not 0 runs it, every that many ms and at once after an event of its own commits:
 *
 * 1. fan-out: claims a batch of `domain_events` (platform's outbox, a lease per row), inserts one pending
 *    delivery per enabled webhook that wants the event (unique per webhook and event: a second instance's
 *    insert, or a second try after a lapsed claim, is skipped), then removes the events;
 * 2. delivery: claims due pending deliveries (a conditional UPDATE with a lease: one instance each), POSTs
 *    them (WebhookSender), and records the outcome: succeeded, a retry at `base × 2^(n-1)` s, or failed
 *    after the last retry. An endpoint whose failures have lasted the whole retry window (≈ 24 h) is
 *    disabled with the reason.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private readonly pollMs: number;
  private readonly baseSeconds: number;
  private readonly deliveryLeaseMs: number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly outbox: DomainEvents,
    private readonly webhooks: WebhooksRepository,
    private readonly sender: WebhookSender,
    config: AppConfig,
  ) {
    this.pollMs = config.webhookPollMs;
    this.baseSeconds = config.webhookRetryBaseSeconds;
    this.deliveryLeaseMs = config.webhookTimeoutMs + 30_000;
  }

  get enabled(): boolean {
    return this.pollMs > 0;
  }

  onApplicationBootstrap(): void {
    if (!this.enabled) return;
    this.timer = setInterval(() => this.poke(), this.pollMs);
    this.timer.unref();
    this.poke();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** Any domain event committed here: deliver it now rather than at the next poll. */
  @OnEvent('**')
  onDomainEvent(): void {
    if (this.enabled) this.poke();
  }

  /** Starts a tick, or asks the running one to go round once more. */
  poke(): void {
    if (this.stopped) return;
    if (this.running !== undefined) {
      this.again = true;
      return;
    }
    this.running = this.loop().finally(() => {
      this.running = undefined;
    });
  }

  /** Runs ticks until nothing is left to do now (tests, the CLI). */
  async drain(): Promise<void> {
    await this.running;
    while (await this.tick()) {
      /* more work */
    }
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      try {
        await this.tick();
      } catch (error) {
        this.logger.warn(`delivery round failed: ${describe(error)}`);
      }
    } while (this.again && !this.stopped);
  }

  /** One round: hands on outbox events and attempts due deliveries. True when there may be more. */
  async tick(): Promise<boolean> {
    let more = false;
    for (let batch = 0; batch < MAX_BATCHES && !this.stopped; batch++) {
      const count = await this.fanOut();
      if (count < EVENT_BATCH) break;
      more = batch === MAX_BATCHES - 1;
    }
    for (let batch = 0; batch < MAX_BATCHES && !this.stopped; batch++) {
      const count = await this.deliverDue();
      if (count < DELIVERY_BATCH) break;
      more = batch === MAX_BATCHES - 1;
    }
    return more;
  }

  /** Turns a batch of outbox events into deliveries; returns how many events it took. */
  private async fanOut(): Promise<number> {
    const { token, events } = await this.outbox.claim(EVENT_BATCH, OUTBOX_LEASE_MS);
    if (events.length === 0) return 0;
    const hooks = await this.webhooks.enabled();
    const deliveries: NewDelivery[] = [];
    for (const event of events) {
      const body = bodyOf(event);
      for (const hook of hooks) {
        if (matchesAny(hook.events, event.type))
          deliveries.push({ webhookId: hook.id, eventId: event.eventId, eventType: event.type, body });
      }
    }
    // No transaction needed: the inserts are idempotent (one delivery per webhook and event), so events
    // whose claim lapsed before `settle` are simply fanned out again without duplicates. (On SQLite a
    // background transaction would also nest into a request's: one connection per process.)
    await this.webhooks.insertDeliveries(deliveries, new Date());
    await this.outbox.settle(token);
    return events.length;
  }

  /** Attempts a batch of due deliveries; returns how many it took. */
  private async deliverDue(): Promise<number> {
    const token = randomUUID();
    const claimed = await this.webhooks.claimDue(token, DELIVERY_BATCH, this.deliveryLeaseMs, new Date());
    await Promise.all(
      claimed.map(async (delivery) => {
        if (!delivery.enabled) {
          await this.webhooks.recordAttempt(delivery.id, token, {
            status: 'failed',
            attempts: delivery.attempts,
            statusCode: delivery.lastStatusCode,
            error: 'the endpoint was disabled',
            nextAttemptAt: null,
            at: new Date(),
          });
          return;
        }
        const outcome = await this.sender.send(
          delivery.url,
          delivery.secret,
          delivery.eventId,
          delivery.body,
        );
        const at = new Date();
        const attempts = delivery.attempts + 1;
        if (outcome.ok) {
          await this.webhooks.recordAttempt(delivery.id, token, {
            status: 'succeeded',
            attempts,
            statusCode: outcome.statusCode,
            error: null,
            nextAttemptAt: null,
            at,
          });
          await this.webhooks.succeeded(delivery.webhookId);
          return;
        }
        const delay = retryDelayMs(attempts, this.baseSeconds);
        await this.webhooks.recordAttempt(delivery.id, token, {
          status: delay === undefined ? 'failed' : 'pending',
          attempts,
          statusCode: outcome.statusCode,
          error: outcome.error,
          nextAttemptAt: delay === undefined ? null : new Date(at.getTime() + delay),
          at,
        });
        this.logger.warn(
          `webhook ${delivery.webhookId}: ${delivery.eventType} ${delivery.eventId} attempt ${attempts} failed` +
            ` (${outcome.detail ?? outcome.error ?? 'no answer'})${delay === undefined ? '; giving up' : `; next in ${Math.round(delay / 1000)} s`}`,
        );
        await this.afterFailure(delivery.webhookId, outcome.error ?? 'no answer', at);
      }),
    );
    return claimed.length;
  }

  /** An endpoint failing for the whole retry window is disabled, with the reason admins see. */
  private async afterFailure(webhookId: number, error: string, at: Date): Promise<void> {
    const since = await this.webhooks.failed(webhookId, at);
    if (since === null || at.getTime() - since.getTime() < failureWindowMs(this.baseSeconds)) return;
    const reason = `every delivery failed since ${since.toISOString()}; the last: ${error}`;
    await this.webhooks.disable(webhookId, reason, at);
    this.logger.warn(`webhook ${webhookId} disabled: ${reason}`);
  }
}

/** The body receivers get: `{type, timestamp, data}` (data: ids and absolute URLs of what changed). */
export function bodyOf(event: OutboxEvent): string {
  return JSON.stringify({ type: event.type, timestamp: event.occurredAt.toISOString(), data: event.data });
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
