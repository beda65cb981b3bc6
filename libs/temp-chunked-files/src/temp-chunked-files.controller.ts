import { Controller, Delete, Get, HttpCode, Param, Post, Put, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiBinaryBody, ApiBinaryResponse, XmlList, XmlRoot, declaredLength } from '@dam/http';
import { Actor, ActorUser } from '@dam/access';
import type { Request, Response } from 'express';
import { chunkDigests } from './http/chunk-digests';
import { rawBodyOrThrow, sendStream } from './http/raw-body';
import { ChunkIndex, TempFileIdPipe } from './http/temp-chunked-file.pipes';
import {
  CHUNK_XML,
  TEMP_CHUNKED_FILE_XML,
  TempChunkedFileMapper,
  TempChunkedFileRepresentation,
} from './temp-chunked-file.mapper';
import { ChunkSummary, StoredChunk, TempChunkedFilesService } from './temp-chunked-files.service';
import { StoredChunkSchema, TempChunkedFileSchema } from './temp-chunked-files.api';

@ApiTags('temp chunked files')
@ApiBearerAuth()
@Controller('rest/temp-chunked-files')
export class TempChunkedFilesController {
  constructor(
    private readonly files: TempChunkedFilesService,
    private readonly mapper: TempChunkedFileMapper,
  ) {}

  @Post()
  @ApiCreatedResponse({ description: 'Created; `Location` is its URL', type: TempChunkedFileSchema })
  @XmlRoot(TEMP_CHUNKED_FILE_XML)
  async create(
    @Actor() actor: ActorUser,
    @Res({ passthrough: true }) response: Response,
  ): Promise<TempChunkedFileRepresentation> {
    const file = await this.files.create(actor);
    response.status(201).location(this.mapper.url(file.id));
    return this.mapper.toRepresentation(file);
  }

  @Put(':id/:index')
  @ApiParam({ name: 'id', schema: { type: 'string', format: 'uuid' } })
  @ApiParam({ name: 'index', schema: { type: 'integer', minimum: 0, maximum: 99999 } })
  @ApiBinaryBody('The bytes of chunk `index`')
  @ApiOkResponse({ type: StoredChunkSchema })
  @HttpCode(200)
  @XmlRoot(CHUNK_XML)
  putChunk(
    @Actor() actor: ActorUser,
    @Param('id', TempFileIdPipe) id: string,
    @ChunkIndex() index: number,
    @Req() request: Request,
  ): Promise<StoredChunk> {
    return this.files.putChunk(
      actor,
      id,
      index,
      rawBodyOrThrow(request),
      declaredLength(request),
      chunkDigests(request),
    );
  }

  /** The chunks present, in index order: an interrupted client sends only the others. */
  @Get(':id/chunks')
  @ApiParam({ name: 'id', schema: { type: 'string', format: 'uuid' } })
  @ApiOkResponse({
    description:
      'The chunks present, in index order (`sha256`: hex, null for chunks stored before it was kept)',
    schema: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          index: { type: 'integer' },
          size: { type: 'integer' },
          sha256: { type: 'string', nullable: true },
        },
      },
    },
  })
  @XmlList('chunks', 'chunk')
  chunks(@Actor() actor: ActorUser, @Param('id', TempFileIdPipe) id: string): Promise<ChunkSummary[]> {
    return this.files.listChunks(actor, id);
  }

  @Get(':id')
  @ApiParam({ name: 'id', schema: { type: 'string', format: 'uuid' } })
  @ApiBinaryResponse('The chunks, concatenated in index order')
  async read(
    @Actor() actor: ActorUser,
    @Param('id', TempFileIdPipe) id: string,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const content = await this.files.read(actor, id);
    response.status(200).type('application/octet-stream').setHeader('Content-Length', String(content.size));
    await sendStream(request, response, content.body);
  }

  @Delete(':id')
  @ApiParam({ name: 'id', schema: { type: 'string', format: 'uuid' } })
  @HttpCode(204)
  async delete(@Actor() actor: ActorUser, @Param('id', TempFileIdPipe) id: string): Promise<void> {
    await this.files.delete(actor, id);
  }
}
