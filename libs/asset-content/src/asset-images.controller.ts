import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Actor, ActorUser } from '@dam/access';
import { ApiBinaryResponse, ApiRedirect, IdPipe } from '@dam/http';
import type { Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { AssetImagesService } from './asset-images.service';
import { RenditionKind } from './entities/asset-rendition.entity';

/** The generated images of an asset (303 to signed URLs) and conversions streamed on the fly. */
@ApiTags('assets')
@ApiBearerAuth()
@Controller('rest/assets/:id')
export class AssetImagesController {
  constructor(private readonly images: AssetImagesService) {}

  @Get('thumbnail')
  @ApiRedirect('To a signed URL of the thumbnail')
  thumbnail(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('asset')) id: number,
    @Res() response: Response,
  ) {
    return this.redirect(actor, id, 'thumbnail', response);
  }

  @Get('preview')
  @ApiRedirect('To a signed URL of the preview')
  preview(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('asset')) id: number,
    @Res() response: Response,
  ) {
    return this.redirect(actor, id, 'preview', response);
  }

  @Get('display')
  @ApiRedirect('To a signed URL of the display image')
  display(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('asset')) id: number,
    @Res() response: Response,
  ) {
    return this.redirect(actor, id, 'display', response);
  }

  @Get('unwatermarked-large-image')
  @ApiRedirect('To a signed URL of the large image')
  large(@Actor() actor: ActorUser, @Param('id', new IdPipe('asset')) id: number, @Res() response: Response) {
    return this.redirect(actor, id, 'large', response);
  }

  /** A video's web proxy (DESIGN §12): 404 until it is made, and for any other asset. */
  @Get('preview-video')
  @ApiRedirect('To a signed URL of the web proxy of a video (MP4, H.264/AAC, at most 720p; Range honoured)')
  previewVideo(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('asset')) id: number,
    @Res() response: Response,
  ) {
    return this.redirect(actor, id, 'video', response);
  }

  /** Streams the converted image; a failure after the first byte can only cut the response short. */
  @Get('conversion')
  @ApiQuery({ name: 'width', required: false, schema: { type: 'integer', minimum: 1, maximum: 4096 } })
  @ApiQuery({ name: 'height', required: false, schema: { type: 'integer', minimum: 1, maximum: 4096 } })
  @ApiQuery({ name: 'format', required: false, enum: ['jpg', 'png', 'webp', 'gif'] })
  @ApiQuery({ name: 'cropToFit', required: false, type: Boolean })
  @ApiBinaryResponse('The converted image', 200, 'image/jpeg', 'image/png', 'image/webp', 'image/gif')
  async conversion(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('asset')) id: number,
    @Query() query: Record<string, unknown>,
    @Res() response: Response,
  ): Promise<void> {
    const { stream, contentType } = await this.images.convert(actor, id, query);
    response.status(200).type(contentType);
    await pipeline(stream, response).catch(() => response.destroy());
  }

  private async redirect(
    actor: ActorUser,
    id: number,
    kind: RenditionKind,
    response: Response,
  ): Promise<void> {
    response.redirect(303, await this.images.renditionUrl(actor, id, kind));
  }
}
