import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Actor, ActorUser } from '@dam/access';
import { ApiPaging, IdPipe, PagingQuery, XmlList, XmlRoot, pagedList } from '@dam/http';
import type { Response } from 'express';
import { AtLightbox, LightboxPath } from './lightbox-path.decorator';
import { AddLightboxContentDto } from './dto/lightbox.dto';
import { LightboxContentsService } from './lightbox-contents.service';
import {
  LIGHTBOX_ITEM_XML,
  LightboxContentInstance,
  LightboxContentItem,
  LightboxMapper,
} from './lightbox.mapper';
import { LightboxContentInstanceSchema, LightboxContentItemSchema } from './lightboxes.api';

/** Spec 4.4 5-8: the assets in a lightbox. */
@ApiTags('lightboxes')
@ApiBearerAuth()
@Controller('rest/users/:ownerId/lightboxes/:lightboxId/contents')
export class LightboxContentsController {
  constructor(
    private readonly contents: LightboxContentsService,
    private readonly mapper: LightboxMapper,
  ) {}

  @Get()
  @ApiPaging()
  @ApiOkResponse({ type: LightboxContentItemSchema, isArray: true })
  @XmlList('lightboxItems', LIGHTBOX_ITEM_XML)
  async list(
    @Actor() actor: ActorUser,
    @AtLightbox() at: LightboxPath,
    @Query() query: PagingQuery,
    @Res({ passthrough: true }) response: Response,
  ): Promise<LightboxContentItem[]> {
    const { views } = await pagedList(query, response, this.mapper.contentsUrl(at), (paging) =>
      this.contents.list(actor, at.ownerId, at.lightboxId, paging),
    );
    return views.map((view) => this.mapper.toContentItem(view));
  }

  /** 201 when added; 200 with the same Location when the asset was already there. */
  @Post()
  @ApiCreatedResponse({ description: 'Added; `Location` is its URL', type: LightboxContentInstanceSchema })
  @ApiOkResponse({ description: 'Already in the lightbox', type: LightboxContentInstanceSchema })
  @XmlRoot(LIGHTBOX_ITEM_XML)
  async add(
    @Actor() actor: ActorUser,
    @AtLightbox() at: LightboxPath,
    @Body() request: AddLightboxContentDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<LightboxContentInstance> {
    const ref = await this.contents.add(actor, at.ownerId, at.lightboxId, request.url);
    response.status(ref.added ? 201 : 200).location(this.mapper.contentUrl(ref));
    return this.mapper.toContentInstance(ref);
  }

  @Get(':assetId')
  @ApiOkResponse({ type: LightboxContentInstanceSchema })
  @XmlRoot(LIGHTBOX_ITEM_XML)
  async get(
    @Actor() actor: ActorUser,
    @AtLightbox() at: LightboxPath,
    @Param('assetId', new IdPipe('asset')) assetId: number,
  ): Promise<LightboxContentInstance> {
    return this.mapper.toContentInstance(await this.contents.get(actor, at.ownerId, at.lightboxId, assetId));
  }

  @Delete(':assetId')
  @HttpCode(204)
  async remove(
    @Actor() actor: ActorUser,
    @AtLightbox() at: LightboxPath,
    @Param('assetId', new IdPipe('asset')) assetId: number,
  ): Promise<void> {
    await this.contents.remove(actor, at.ownerId, at.lightboxId, assetId);
  }
}
