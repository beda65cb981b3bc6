import { Body, Controller, Delete, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Actor, ActorUser } from '@dam/access';
import { IdPipe } from '@dam/platform';
import type { Response } from 'express';
import { AtLightbox, LightboxPath } from './lightbox-path.decorator';
import { AddLightboxContentDto } from './dto/lightbox.dto';
import { LightboxContentsService } from './lightbox-contents.service';
import { LightboxContentInstance, LightboxContentItem, LightboxMapper } from './lightbox.mapper';

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
  async list(@Actor() actor: ActorUser, @AtLightbox() at: LightboxPath): Promise<LightboxContentItem[]> {
    return (await this.contents.list(actor, at.ownerId, at.lightboxId)).map((view) =>
      this.mapper.toContentItem(view),
    );
  }

  /** 201 when added; 200 with the same Location when the asset was already there. */
  @Post()
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
