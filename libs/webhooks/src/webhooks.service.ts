import { Injectable } from '@nestjs/common';
import { ActorUser, requireAdmin } from '@dam/access';
import { InvalidInput, UnknownResource } from '@dam/errors';
import { Paging } from '@dam/http';
import { randomBytes } from 'node:crypto';
import { WebhookWriteDto } from './dto/webhook-write.dto';
import { WebhookTargets } from './target-guard';
import { readEventPatterns } from './webhook-events';
import { Delivery, Webhook, WebhooksRepository } from './webhooks.repository';

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
  ) {}

  async create(actor: ActorUser, body: WebhookWriteDto | undefined): Promise<Webhook> {
    requireAdmin(actor, WHAT);
    const url = (await this.targets.checkOrThrow(body?.url)).toString();
    const events = readEventPatterns(body?.events);
    const description = readDescription(body?.description);
    const id = await this.webhooks.insert({ url, events, description, secret: newSecret() });
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
    await this.getOrThrow(actor, id);
    const changes: Parameters<WebhooksRepository['update']>[1] = {};
    if (body?.url !== undefined) changes.url = (await this.targets.checkOrThrow(body.url)).toString();
    if (body?.events !== undefined) changes.events = readEventPatterns(body.events);
    if (body?.description !== undefined) changes.description = readDescription(body.description);
    if (body?.enabled !== undefined) changes.enabled = body.enabled;
    if (!(await this.webhooks.update(id, changes))) throw new UnknownResource(`webhook ${id} does not exist`);
    return this.getOrThrow(actor, id);
  }

  async delete(actor: ActorUser, id: number): Promise<void> {
    await this.getOrThrow(actor, id);
    await this.webhooks.delete(id);
  }

  /** A new signing secret, effective for the next attempt; the old one stops working at once. */
  async rotateSecret(actor: ActorUser, id: number): Promise<Webhook> {
    await this.getOrThrow(actor, id);
    if (!(await this.webhooks.update(id, { secret: newSecret() })))
      throw new UnknownResource(`webhook ${id} does not exist`);
    return this.getOrThrow(actor, id);
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
