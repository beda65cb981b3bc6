import { Controller, Get, HttpCode, Param, Put, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Actor, ActorUser } from '@dam/access';
import { IdPipe, XmlList, XmlRoot } from '@dam/platform';
import type { Request, Response } from 'express';
import { AssetDownloadsService, AssetVersionRepresentation } from './asset-downloads.service';
import { AssetUploadsService } from './asset-uploads.service';

/** Spec 4.5 items 5-7: the content of an asset, its versions and its (never present) save status. */
@ApiTags('assets')
@ApiBearerAuth()
@Controller('rest/assets/:id')
export class AssetContentController {
  constructor(
    private readonly uploads: AssetUploadsService,
    private readonly downloads: AssetDownloadsService,
  ) {}

  /** The body is streamed into storage, never buffered. */
  @Put('content')
  @HttpCode(200)
  async put(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('asset')) id: number,
    @Query('extractEmbeddedData') extractEmbeddedData: unknown,
    @Req() request: Request,
  ): Promise<void> {
    const { headers } = request;
    await this.uploads.upload(actor, id, {
      body: request,
      contentType: headers['content-type'],
      contentDisposition: headers['content-disposition'],
      asNewVersion: headers['upload-as-new-version'] as string | undefined,
      copyTempFile: headers['x-copy-temp-chunked-file'] as string | undefined,
      extractEmbeddedData,
    });
  }

  @Get('content')
  async content(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('asset')) id: number,
    @Res() response: Response,
  ): Promise<void> {
    response.redirect(303, await this.downloads.contentUrl(actor, id));
  }

  @Get('content/url')
  @XmlRoot('contentUrl')
  async contentUrl(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('asset')) id: number,
    @Res({ passthrough: true }) response: Response,
  ): Promise<{ url: string }> {
    const url = await this.downloads.contentUrl(actor, id);
    response.location(url);
    return { url };
  }

  @Get('versions')
  @XmlList('assetVersions', 'assetVersion')
  versions(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('asset')) id: number,
  ): Promise<AssetVersionRepresentation[]> {
    return this.downloads.versions(actor, id);
  }

  @Get('versions/:version/content')
  async versionContent(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('asset')) id: number,
    @Param('version', new IdPipe('asset version')) version: number,
    @Res() response: Response,
  ): Promise<void> {
    response.redirect(303, await this.downloads.versionUrl(actor, id, version));
  }

  @Get('content-save-status')
  @XmlRoot('saveStatus')
  saveStatus(@Actor() actor: ActorUser, @Param('id', new IdPipe('asset')) id: number): Promise<never> {
    return this.downloads.saveStatus(actor, id);
  }
}
