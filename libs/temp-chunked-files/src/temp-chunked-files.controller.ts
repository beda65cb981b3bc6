import { Controller, Delete, Get, HttpCode, Param, Post, Put, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { XmlRoot } from '@dam/platform';
import { Actor, ActorUser } from '@dam/access';
import type { Request, Response } from 'express';
import { declaredLength, rawBodyOrThrow, sendStream } from './http/raw-body';
import { ChunkIndex, TempFileIdPipe } from './http/temp-chunked-file.pipes';
import {
  CHUNK_XML,
  TEMP_CHUNKED_FILE_XML,
  TempChunkedFileMapper,
  TempChunkedFileRepresentation,
} from './temp-chunked-file.mapper';
import { StoredChunk, TempChunkedFilesService } from './temp-chunked-files.service';

@ApiTags('temp chunked files')
@ApiBearerAuth()
@Controller('rest/temp-chunked-files')
export class TempChunkedFilesController {
  constructor(
    private readonly files: TempChunkedFilesService,
    private readonly mapper: TempChunkedFileMapper,
  ) {}

  @Post()
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
  @HttpCode(200)
  @XmlRoot(CHUNK_XML)
  putChunk(
    @Actor() actor: ActorUser,
    @Param('id', TempFileIdPipe) id: string,
    @ChunkIndex() index: number,
    @Req() request: Request,
  ): Promise<StoredChunk> {
    return this.files.putChunk(actor, id, index, rawBodyOrThrow(request), declaredLength(request));
  }

  @Get(':id')
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
  @HttpCode(204)
  async delete(@Actor() actor: ActorUser, @Param('id', TempFileIdPipe) id: string): Promise<void> {
    await this.files.delete(actor, id);
  }
}
