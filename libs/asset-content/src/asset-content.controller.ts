import { Controller, Get, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Actor, ActorUser } from '@dam/access';
import {
  declaredLength,
  ApiBinaryBody,
  ApiErrors,
  ApiRedirect,
  IdPipe,
  sha256DigestField,
  XmlList,
  XmlRoot,
} from '@dam/http';
import type { Request, Response } from 'express';
import { AssetDownloadsService, AssetVersionRepresentation } from './asset-downloads.service';
import { AssetUploadsService } from './asset-uploads.service';
import { AssetVersionSchema, SaveStatusSchema, SignedUrlSchema } from './asset-content.api';

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
  @ApiBinaryBody('The new content (unless `X-Copy-Temp-Chunked-File` names a temp chunked file)')
  @ApiHeader({
    name: 'X-Copy-Temp-Chunked-File',
    required: false,
    description: 'URL of a temp chunked file to use as the content',
  })
  @ApiHeader({
    name: 'Upload-As-New-Version',
    required: false,
    description: '`true` keeps the old content as a version',
  })
  @ApiHeader({
    name: 'Repr-Digest',
    required: false,
    description:
      'RFC 9530 `sha-256=:<base64>:` of the whole content: a mismatch is a 400 and changes nothing',
  })
  @ApiQuery({ name: 'extractEmbeddedData', required: false, type: Boolean })
  @ApiOkResponse({
    description:
      'Stored: an empty body; `Repr-Digest` carries the stored SHA-256; `X-Duplicate-Of` (DAM_DUPLICATE_UPLOADS=warn) ' +
      'the URLs (at most 10) of other assets you can see whose current content is the same bytes',
  })
  @ApiErrors(409)
  @HttpCode(200)
  async put(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('asset')) id: number,
    @Query('extractEmbeddedData') extractEmbeddedData: unknown,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    const { headers } = request;
    const stored = await this.uploads.upload(actor, id, {
      body: request,
      contentType: headers['content-type'],
      contentDisposition: headers['content-disposition'],
      asNewVersion: headers['upload-as-new-version'] as string | undefined,
      copyTempFile: headers['x-copy-temp-chunked-file'] as string | undefined,
      extractEmbeddedData,
      reprDigest: headers['repr-digest'],
      declaredLength: declaredLength(request),
    });
    response.setHeader('Repr-Digest', sha256DigestField(stored.sha256));
    if (stored.duplicateOf.length > 0) response.setHeader('X-Duplicate-Of', stored.duplicateOf.join(', '));
  }

  @Get('content')
  @ApiRedirect('To a signed URL of the content')
  async content(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('asset')) id: number,
    @Res() response: Response,
  ): Promise<void> {
    response.redirect(303, await this.downloads.contentUrl(actor, id));
  }

  @Get('content/url')
  @ApiOkResponse({ description: 'The signed URL, also in `Location`', type: SignedUrlSchema })
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
  @ApiOkResponse({ type: AssetVersionSchema, isArray: true })
  @XmlList('assetVersions', 'assetVersion')
  versions(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('asset')) id: number,
  ): Promise<AssetVersionRepresentation[]> {
    return this.downloads.versions(actor, id);
  }

  @Get('versions/:version/content')
  @ApiRedirect('To a signed URL of that version')
  async versionContent(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('asset')) id: number,
    @Param('version', new IdPipe('asset version')) version: number,
    @Res() response: Response,
  ): Promise<void> {
    response.redirect(303, await this.downloads.versionUrl(actor, id, version));
  }

  /** That version's file becomes the current content as a new version; 200 with the versions. */
  @Post('versions/:version/restore')
  @HttpCode(200)
  @ApiOkResponse({ type: AssetVersionSchema, isArray: true })
  @ApiErrors(409)
  @XmlList('assetVersions', 'assetVersion')
  async restoreVersion(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('asset')) id: number,
    @Param('version', new IdPipe('asset version')) version: number,
  ): Promise<AssetVersionRepresentation[]> {
    await this.uploads.restoreVersion(actor, id, version);
    return this.downloads.versions(actor, id);
  }

  @Get('content-save-status')
  @ApiOkResponse({ description: 'Never: no save is pending, 404', type: SaveStatusSchema })
  @XmlRoot('saveStatus')
  saveStatus(@Actor() actor: ActorUser, @Param('id', new IdPipe('asset')) id: number): Promise<never> {
    return this.downloads.saveStatus(actor, id);
  }
}
