import { Controller, Get, Headers, Ip, Param, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiBinaryResponse, ApiErrors, IdPipe, Public, XmlRoot } from '@dam/http';
import type { Request, Response } from 'express';
import { PublicShareSchema } from './shares.api';
import { PUBLIC_SHARE_XML, PublicShareRepresentation, ShareMapper } from './share.mapper';
import { PublicSharesService, ShareKey } from './public-shares.service';
import { sendDownload } from './send-download';

const PASSWORD_HEADER = ApiHeader({
  name: 'X-Share-Password',
  required: false,
  description: 'the share’s password, when it has one (401 without or wrong; 429 after too many wrong ones)',
});

/**
 * A share's public URLs (no token: the link is the credential). A revoked, expired or used-up share,
 * like an unknown one, is 404 with the same message. The token is in the path: request logs name the
 * route pattern, never the path.
 */
@ApiTags('shares')
@Public()
@Controller('rest/shared/:token')
export class PublicSharesController {
  constructor(
    private readonly shares: PublicSharesService,
    private readonly mapper: ShareMapper,
  ) {}

  /** The items still there, with their download URLs; not a download. */
  @Get()
  @PASSWORD_HEADER
  @ApiOkResponse({ type: PublicShareSchema })
  @ApiErrors(429)
  @XmlRoot(PUBLIC_SHARE_XML)
  async get(
    @Param('token') token: string,
    @Headers('x-share-password') password: string | undefined,
    @Ip() address: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<PublicShareRepresentation> {
    const open = await this.shares.open({ token, password, address });
    response.setHeader('Cache-Control', 'private, no-store');
    return this.mapper.toPublic(token, open);
  }

  /** Every item in one ZIP, streamed (ZIP64 where sizes need it): one download (HEAD: none). */
  @Get('zip')
  @PASSWORD_HEADER
  @ApiBinaryResponse('The items as one ZIP (stored, names made unique and safe)', 200, 'application/zip')
  @ApiErrors(429)
  async zip(
    @Param('token') token: string,
    @Headers('x-share-password') password: string | undefined,
    @Ip() address: string | undefined,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const key: ShareKey = { token, password, address, headOnly: request.method === 'HEAD' };
    const { share, zip } = await this.shares.zip(key);
    const head = { filename: `${share.title}.zip`, contentType: 'application/zip', length: zip.length };
    await sendDownload(response, head, zip.stream);
  }

  /** One item's bytes: one download (HEAD: none). */
  @Get('items/:position')
  @PASSWORD_HEADER
  @ApiBinaryResponse('The item’s bytes')
  @ApiErrors(429)
  async item(
    @Param('token') token: string,
    @Param('position', new IdPipe('item')) position: number,
    @Headers('x-share-password') password: string | undefined,
    @Ip() address: string | undefined,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const key: ShareKey = { token, password, address, headOnly: request.method === 'HEAD' };
    const { content, stream } = await this.shares.download(key, position);
    await sendDownload(response, { ...content, length: content.size }, stream);
  }
}
