import { Injectable } from '@nestjs/common';
import { ActorUser, requireAdmin } from '@dam/access';
import { InvalidInput, UnknownResource } from '@dam/errors';
import { DomainEvents } from '@dam/events';
import { Paging, UrlService } from '@dam/http';
import { randomBytes } from 'node:crypto';
import { WebhookWriteDto } from './dto/webhook-write.dto';
import { WebhookTargets } from './target-guard';
import { readEventPatterns } from './webhook-events';
import { Delivery, Webhook, WebhooksRepository } from './webhooks.repository';
import {
  WebhookCreated,
  WebhookDeleted,
  webhookChanges,
  webhookEventData,
  WebhookFields,
  WebhookUpdated,
} from './webhook-changes';

const MAX_DESCRIPTION = 1000;
const WHAT = 'manage webhooks';

/** A fresh Standard Webhooks signing secret: `whsec_` and 32 random bytes in base64. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** Webhooks (README "Webhooks"): admins and the application user only. */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly targets: WebhookTargets,
    private readonly events: DomainEvents,
    private readonly urls: UrlService,
  ) {}

  async create(actor: ActorUser, body: WebhookWriteDto | undefined): Promise<Webhook> {
    requireAdmin(actor, WHAT);
    const url = (await this.targets.checkOrThrow(body?.url)).toString();
    const events = readEventPatterns(body?.events);
    const description = readDescription(body?.description);
    const created = webhookChanges(undefined, { url, events, description, enabled: true });
    const id = await this.webhooks.insert({ url, events, description, secret: newSecret() }, (manager, id) =>
      this.events.record(
        manager,
        new WebhookCreated(webhookEventData(this.urls, id, actor.id)).withChanges(created),
      ),
    );
    return this.getOrThrow(actor, id);
  }

  async list(actor: ActorUser, paging?: Paging): Promise<{ webhooks: Webhook[]; total: number }> {
    requireAdmin(actor, WHAT);
    return this.webhooks.page(paging?.offset ?? 0, paging?.pageSize);
  }

  async getOrThrow(actor: ActorUser, id: number): Promise<Webhook> {
    requireAdmin(actor, WHAT);
    const webhook = await this.webhooks.get(id);
    if (webhook === undefined) throw new UnknownResource(`webhook ${id} does not exist`);
    return webhook;
  }

  /** Changes the fields present; `enabled: true` re-enables a disabled webhook (its failures forgotten). */
  async update(actor: ActorUser, id: number, body: WebhookWriteDto | undefined): Promise<Webhook> {
    const before = await this.getOrThrow(actor, id);
    const changes: WebhookFields = {};
    if (body?.url !== undefined) changes.url = (await this.targets.checkOrThrow(body.url)).toString();
    if (body?.events !== undefined) changes.events = readEventPatterns(body.events);
    if (body?.description !== undefined) changes.description = readDescription(body.description);
    if (body?.enabled !== undefined) changes.enabled = body.enabled;
    return this.updated(actor, before, changes);
  }

  async delete(actor: ActorUser, id: number): Promise<void> {
    const before = await this.getOrThrow(actor, id);
    const deleted = webhookChanges(before, undefined);
    const found = await this.webhooks.delete(id, (manager) =>
      this.events.record(
        manager,
        new WebhookDeleted(webhookEventData(this.urls, id, actor.id)).withChanges(deleted),
      ),
    );
    if (!found) throw new UnknownResource(`webhook ${id} does not exist`);
  }

  /** A new signing secret, effective for the next attempt; the old one stops working at once. */
  async rotateSecret(actor: ActorUser, id: number): Promise<Webhook> {
    return this.updated(actor, await this.getOrThrow(actor, id), { secret: newSecret() });
  }

  /** Writes `changes` with its `webhook.updated` (the secret named, never its value); the webhook after. */
  private async updated(actor: ActorUser, before: Webhook, changes: WebhookFields): Promise<Webhook> {
    const changed = webhookChanges(before, changes);
    const found = await this.webhooks.update(before.id, changes, (manager) =>
      this.events.record(
        manager,
        new WebhookUpdated(webhookEventData(this.urls, before.id, actor.id)).withChanges(changed),
      ),
    );
    if (!found) throw new UnknownResource(`webhook ${before.id} does not exist`);
    return this.getOrThrow(actor, before.id);
  }

  async deliveries(
    actor: ActorUser,
    id: number,
    paging: Paging,
  ): Promise<{ deliveries: Delivery[]; total: number }> {
    await this.getOrThrow(actor, id);
    return this.webhooks.deliveries(id, paging.offset, paging.pageSize);
  }
}

function readDescription(raw: string | null | undefined): string | null {
  if (raw === undefined || raw === null || raw === '') return null;
  if (raw.length > MAX_DESCRIPTION)
    throw new InvalidInput(`description must be at most ${MAX_DESCRIPTION} characters`);
  return raw;
}
