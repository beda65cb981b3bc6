import { Controller, Delete, Head, Options, Patch, Post, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Actor, ActorUser } from '@dam/access';
import type { Request, Response } from 'express';
import { TusService } from './tus.service';

const TUS_RESUMABLE = { name: 'Tus-Resumable', required: true, description: '`1.0.0`' };
const UPLOAD_ID = { name: 'id', description: 'The last segment of the upload URL (32 hex digits)' };

/**
 * tus 1.0 (https://tus.io/protocols/resumable-upload): `POST /rest/tus` creates an upload (Upload-Length,
 * Upload-Metadata `assetId` and `filename`), `HEAD` / `PATCH` / `DELETE /rest/tus/{id}` read its offset,
 * append to it, terminate it; `OPTIONS` lists the extensions. Every request needs a bearer token. The
 * answers are tus's (TusService): this controller only routes.
 */
@ApiTags('tus')
@ApiBearerAuth()
@Controller('rest/tus')
export class TusController {
  constructor(private readonly tus: TusService) {}

  @Post()
  @ApiHeader(TUS_RESUMABLE)
  @ApiHeader({ name: 'Upload-Length', required: true, description: 'The size of the whole file in bytes' })
  @ApiHeader({
    name: 'Upload-Metadata',
    required: true,
    description:
      '`assetId <base64>` (required: the asset whose content it becomes), `filename <base64>`, optionally `asNewVersion`, `extractEmbeddedData`',
  })
  @ApiResponse({ status: 201, description: 'Created; `Location` is the upload URL' })
  create(@Actor() actor: ActorUser, @Req() request: Request, @Res() response: Response): Promise<void> {
    return this.tus.handle(actor, request, response);
  }

  @Options()
  @ApiResponse({ status: 204, description: 'Tus-Version, Tus-Extension, Tus-Checksum-Algorithm' })
  options(@Actor() actor: ActorUser, @Req() request: Request, @Res() response: Response): Promise<void> {
    return this.tus.handle(actor, request, response);
  }

  @Head(':id')
  @ApiParam(UPLOAD_ID)
  @ApiHeader(TUS_RESUMABLE)
  @ApiResponse({ status: 200, description: 'Upload-Offset and Upload-Length' })
  offset(@Actor() actor: ActorUser, @Req() request: Request, @Res() response: Response): Promise<void> {
    return this.tus.handle(actor, request, response);
  }

  @Patch(':id')
  @ApiParam(UPLOAD_ID)
  @ApiHeader(TUS_RESUMABLE)
  @ApiHeader({ name: 'Upload-Offset', required: true, description: 'Where these bytes go' })
  @ApiHeader({ name: 'Upload-Checksum', required: false, description: '`sha1 <base64>` (or md5, sha256)' })
  @ApiResponse({
    status: 204,
    description: 'Appended; the new Upload-Offset (the last one also carries Repr-Digest)',
  })
  @ApiResponse({ status: 460, description: 'The body does not match Upload-Checksum: nothing was stored' })
  append(@Actor() actor: ActorUser, @Req() request: Request, @Res() response: Response): Promise<void> {
    return this.tus.handle(actor, request, response);
  }

  @Delete(':id')
  @ApiParam(UPLOAD_ID)
  @ApiHeader(TUS_RESUMABLE)
  @ApiResponse({ status: 204, description: 'Terminated' })
  terminate(@Actor() actor: ActorUser, @Req() request: Request, @Res() response: Response): Promise<void> {
    return this.tus.handle(actor, request, response);
  }

  @Options(':id')
  @ApiParam(UPLOAD_ID)
  @ApiResponse({ status: 204, description: 'Tus-Version, Tus-Extension, Tus-Checksum-Algorithm' })
  uploadOptions(
    @Actor() actor: ActorUser,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    return this.tus.handle(actor, request, response);
  }
}
