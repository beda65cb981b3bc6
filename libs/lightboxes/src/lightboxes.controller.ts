import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Actor, ActorUser } from '@dam/access';
import {
  ApiErrors,
  ApiPaging,
  IdPipe,
  pagedList,
  PagingQuery,
  UrlService,
  XmlList,
  XmlRoot,
} from '@dam/http';
import type { Response } from 'express';
import { AtLightbox, LightboxPath } from './lightbox-path.decorator';
import { LightboxWriteDto } from './dto/lightbox.dto';
import { LIGHTBOX_XML, LightboxListItem, LightboxMapper, LightboxRepresentation } from './lightbox.mapper';
import { LightboxesService } from './lightboxes.service';
import { LightboxListItemSchema, LightboxSchema } from './lightboxes.api';

/** Spec 4.4 1-4: a user's lightboxes. */
@ApiTags('lightboxes')
@ApiBearerAuth()
@Controller('rest/users/:ownerId/lightboxes')
export class LightboxesController {
  constructor(
    private readonly lightboxes: LightboxesService,
    private readonly mapper: LightboxMapper,
  ) {}

  @Get()
  @ApiPaging()
  @ApiOkResponse({ type: LightboxListItemSchema, isArray: true })
  @XmlList('lightboxes', LIGHTBOX_XML)
  async list(
    @Actor() actor: ActorUser,
    @Param('ownerId', new IdPipe('user')) ownerId: number,
    @Query() query: PagingQuery,
    @Res({ passthrough: true }) response: Response,
  ): Promise<LightboxListItem[]> {
    const { views } = await pagedList(query, response, this.mapper.listUrl(ownerId), (paging) =>
      this.lightboxes.list(actor, ownerId, paging),
    );
    return views.map((view) => this.mapper.toListItem(view));
  }

  @Post()
  @XmlRoot(LIGHTBOX_XML)
  @ApiCreatedResponse({ description: 'Created; `Location` is its URL', type: LightboxSchema })
  @ApiErrors(409)
  async create(
    @Actor() actor: ActorUser,
    @Param('ownerId', new IdPipe('user')) ownerId: number,
    @Body() request: LightboxWriteDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<LightboxRepresentation> {
    const view = await this.lightboxes.create(actor, ownerId, request);
    response.status(201).location(this.mapper.instanceUrl(view.lightbox.userId, view.lightbox.id));
    return this.mapper.toRepresentation(view);
  }

  @Get(':lightboxId')
  @ApiOkResponse({ type: LightboxSchema })
  @XmlRoot(LIGHTBOX_XML)
  async get(@Actor() actor: ActorUser, @AtLightbox() at: LightboxPath): Promise<LightboxRepresentation> {
    return this.mapper.toRepresentation(await this.lightboxes.get(actor, at.ownerId, at.lightboxId));
  }

  /** Spec 4.9: POST on the instance changes its name and/or description. */
  @Post(':lightboxId')
  @ApiOkResponse({ type: LightboxSchema })
  @ApiErrors(409)
  @HttpCode(200)
  @XmlRoot(LIGHTBOX_XML)
  async update(
    @Actor() actor: ActorUser,
    @AtLightbox() at: LightboxPath,
    @Body() request: LightboxWriteDto,
  ): Promise<LightboxRepresentation> {
    return this.mapper.toRepresentation(
      await this.lightboxes.update(actor, at.ownerId, at.lightboxId, request),
    );
  }

  @Delete(':lightboxId')
  @HttpCode(204)
  async delete(@Actor() actor: ActorUser, @AtLightbox() at: LightboxPath): Promise<void> {
    await this.lightboxes.delete(actor, at.ownerId, at.lightboxId);
  }
}

/** The root's `lightboxesUrl`: the lightboxes of whoever the request acts as (as Asset Bank, no redirect). */
@ApiTags('lightboxes')
@ApiBearerAuth()
@Controller('rest/lightboxes')
export class OwnLightboxesController {
  constructor(
    private readonly lightboxes: LightboxesService,
    private readonly mapper: LightboxMapper,
    private readonly urls: UrlService,
  ) {}

  /** The same body as `GET /rest/users/{actor}/lightboxes`, paged alike. */
  @Get()
  @ApiPaging()
  @ApiOkResponse({ type: LightboxListItemSchema, isArray: true })
  @XmlList('lightboxes', LIGHTBOX_XML)
  async list(
    @Actor() actor: ActorUser,
    @Query() query: PagingQuery,
    @Res({ passthrough: true }) response: Response,
  ): Promise<LightboxListItem[]> {
    const { views } = await pagedList(query, response, this.urls.rest('lightboxes'), (paging) =>
      this.lightboxes.list(actor, actor.id, paging),
    );
    return views.map((view) => this.mapper.toListItem(view));
  }
}
