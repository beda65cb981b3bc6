import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import { Actor, ActorUser } from '@dam/access';
import { ApiPaging, IdPipe, Paging, PagingQuery, XmlList, XmlRoot, pagedList } from '@dam/http';
import type { Response } from 'express';
import { WebhookWriteDto } from './dto/webhook-write.dto';
import {
  DELIVERY_XML,
  DeliveryRepresentation,
  WEBHOOK_XML,
  WebhookMapper,
  WebhookRepresentation,
} from './webhook.mapper';
import { DeliverySchema, WebhookSchema } from './webhooks.api';
import { WebhooksService } from './webhooks.service';

/** A webhook's deliveries, a long history: pages of 20 (the first when none is asked for), at most 100. */
const DELIVERY_PAGES = { pageSize: 20, maxPageSize: 100, firstPageByDefault: true } as const;

/** Outbound webhooks (README "Webhooks", docs/events.md). Admins and the application user only. */
@ApiTags('webhooks')
@ApiBearerAuth()
@Controller('rest/admin/webhooks')
export class WebhooksController {
  constructor(
    private readonly webhooks: WebhooksService,
    private readonly mapper: WebhookMapper,
  ) {}

  /** 201 with `Location`; the signing secret is in this answer only. */
  @Post()
  @ApiCreatedResponse({
    description: 'Created; `Location` is its URL; `secret` shown once',
    type: WebhookSchema,
  })
  @XmlRoot(WEBHOOK_XML)
  async create(
    @Actor() actor: ActorUser,
    @Body() body: WebhookWriteDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<WebhookRepresentation> {
    const webhook = await this.webhooks.create(actor, body);
    response.status(201).location(this.mapper.instanceUrl(webhook.id));
    return this.mapper.toWebhook(webhook, true);
  }

  @Get()
  @ApiPaging()
  @ApiOkResponse({ type: WebhookSchema, isArray: true })
  @XmlList('webhooks', WEBHOOK_XML)
  async list(
    @Actor() actor: ActorUser,
    @Query() query: PagingQuery,
    @Res({ passthrough: true }) response: Response,
  ): Promise<WebhookRepresentation[]> {
    const { webhooks } = await pagedList(query, response, this.mapper.listUrl(), (paging) =>
      this.webhooks.list(actor, paging),
    );
    return webhooks.map((webhook) => this.mapper.toWebhook(webhook));
  }

  @Get(':id')
  @ApiOkResponse({ type: WebhookSchema })
  @XmlRoot(WEBHOOK_XML)
  async get(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('webhook')) id: number,
  ): Promise<WebhookRepresentation> {
    return this.mapper.toWebhook(await this.webhooks.getOrThrow(actor, id));
  }

  @Put(':id')
  @ApiOkResponse({ type: WebhookSchema })
  @XmlRoot(WEBHOOK_XML)
  async update(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('webhook')) id: number,
    @Body() body: WebhookWriteDto,
  ): Promise<WebhookRepresentation> {
    return this.mapper.toWebhook(await this.webhooks.update(actor, id, body));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Deleted, with its deliveries' })
  async delete(@Actor() actor: ActorUser, @Param('id', new IdPipe('webhook')) id: number): Promise<void> {
    await this.webhooks.delete(actor, id);
  }

  /** A new signing secret, in this answer only; the old one stops working at once. */
  @Post(':id/secret')
  @HttpCode(200)
  @ApiOkResponse({ description: 'The webhook with its new `secret`', type: WebhookSchema })
  @XmlRoot(WEBHOOK_XML)
  async rotateSecret(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('webhook')) id: number,
  ): Promise<WebhookRepresentation> {
    return this.mapper.toWebhook(await this.webhooks.rotateSecret(actor, id), true);
  }

  /** Newest first, a page at a time (`page`, `pageSize` ≤ 100, default 20), with X-Total-Count and Link. */
  @Get(':id/deliveries')
  @ApiPaging()
  @ApiOkResponse({ type: DeliverySchema, isArray: true })
  @XmlList('deliveries', DELIVERY_XML)
  async deliveries(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('webhook')) id: number,
    @Query() query: PagingQuery,
    @Res({ passthrough: true }) response: Response,
  ): Promise<DeliveryRepresentation[]> {
    const load = (paging: Paging) => this.webhooks.deliveries(actor, id, paging);
    const { deliveries } = await pagedList(
      query,
      response,
      this.mapper.deliveriesUrl(id),
      load,
      DELIVERY_PAGES,
    );
    return deliveries.map((delivery) => this.mapper.toDelivery(delivery));
  }
}
