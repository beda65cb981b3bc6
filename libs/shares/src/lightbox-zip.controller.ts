import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Actor, ActorUser } from '@dam/access';
import { DownloadableContents } from '@dam/asset-content';
import { ApiBinaryResponse, IdPipe } from '@dam/http';
import { LightboxAssets } from '@dam/lightboxes';
import type { Response } from 'express';
import { sendDownload } from './send-download';
import { ContentZips } from './zip/content-zips';

/**
 * `GET /rest/lightboxes/{id}/zip`: the lightbox's assets the caller may download, as one streamed ZIP
 * (the shares' ZIP writer). Here rather than in lightboxes, which sits on the floor of asset-content.
 */
@ApiTags('lightboxes')
@ApiBearerAuth()
@Controller('rest/lightboxes')
export class LightboxZipController {
  constructor(
    private readonly lightboxes: LightboxAssets,
    private readonly contents: DownloadableContents,
    private readonly zips: ContentZips,
  ) {}

  @Get(':id/zip')
  @ApiBinaryResponse('The assets the caller may download, as one ZIP', 200, 'application/zip')
  async zip(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('lightbox')) id: number,
    @Res() response: Response,
  ): Promise<void> {
    const lightbox = await this.lightboxes.of(actor, id);
    const contents = await this.contents.downloadable(actor, lightbox.assetIds, 'original');
    const zip = await this.zips.zipOf(contents);
    await sendDownload(
      response,
      { filename: `${lightbox.name}.zip`, contentType: 'application/zip', length: zip.length },
      zip.stream,
    );
  }
}
