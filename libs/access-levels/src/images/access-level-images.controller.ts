import { Controller, Delete, Get, HttpCode, Param, Put, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Actor, ActorUser } from '@dam/access';
import { ApiBinaryBody, ApiRedirect, IdPipe } from '@dam/http';
import type { Request, Response } from 'express';
import { AccessLevelImagesService } from './access-level-images.service';

/** Spec 4.1 items 6-8. The upload body is streamed, never buffered. */
@ApiTags('access-levels')
@ApiBearerAuth()
@Controller('rest/access-levels/:id/image')
export class AccessLevelImagesController {
  constructor(private readonly images: AccessLevelImagesService) {}

  /** 303 to a signed URL of the image, or 204 when the level has none. */
  @Get()
  @ApiRedirect('To a signed URL of the image')
  @ApiNoContentResponse({ description: 'The level has no image' })
  async get(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('access level')) id: number,
    @Res() response: Response,
  ): Promise<void> {
    const url = await this.images.signedUrl(actor, id);
    if (url === undefined) response.status(204).end();
    else response.redirect(303, url);
  }

  @Put()
  @ApiBinaryBody(
    'The image',
    'application/octet-stream',
    'image/jpeg',
    'image/png',
    'image/gif',
    'image/webp',
  )
  @ApiOkResponse({ description: 'Stored: an empty body' })
  @HttpCode(200)
  async put(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('access level')) id: number,
    @Req() request: Request,
  ): Promise<void> {
    const { headers } = request;
    await this.images.replace(actor, id, {
      body: request,
      contentType: headers['content-type'],
      contentDisposition: headers['content-disposition'],
      contentLength: headers['content-length'],
    });
  }

  @Delete()
  @HttpCode(204)
  async delete(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('access level')) id: number,
  ): Promise<void> {
    await this.images.delete(actor, id);
  }
}
