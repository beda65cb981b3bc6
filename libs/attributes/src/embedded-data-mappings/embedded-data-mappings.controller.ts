import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Actor, ActorUser } from '@dam/access';
import { IdPipe, PagingQuery, UrlService } from '@dam/platform';
import type { Response } from 'express';
import { pageOf } from '../paged-list';
import { EmbeddedDataMappingDto } from './dto/embedded-data-mapping.dto';
import { EmbeddedDataMappingMapper, EmbeddedDataMappingRepresentation } from './embedded-data-mapping.mapper';
import { EmbeddedDataMappingsService } from './embedded-data-mappings.service';

@ApiTags('embedded data mappings')
@ApiBearerAuth()
@Controller('rest/embedded-data-mappings')
export class EmbeddedDataMappingsController {
  constructor(
    private readonly mappings: EmbeddedDataMappingsService,
    private readonly mapper: EmbeddedDataMappingMapper,
    private readonly urls: UrlService,
  ) {}

  @Get()
  async list(
    @Query() query: PagingQuery,
    @Res({ passthrough: true }) response: Response,
  ): Promise<EmbeddedDataMappingRepresentation[]> {
    const mappings = (await this.mappings.list()).map((mapping) => this.mapper.toRepresentation(mapping));
    return pageOf(mappings, query, response, this.urls.rest('embedded-data-mappings'));
  }

  @Post()
  async create(
    @Actor() actor: ActorUser,
    @Body() request: EmbeddedDataMappingDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<EmbeddedDataMappingRepresentation> {
    const mapping = await this.mappings.create(actor, request);
    response.status(201).location(this.mapper.url(mapping.mapping.id));
    return this.mapper.toRepresentation(mapping);
  }

  @Get(':id')
  async get(
    @Param('id', new IdPipe('embedded data mapping')) id: number,
  ): Promise<EmbeddedDataMappingRepresentation> {
    return this.mapper.toRepresentation(await this.mappings.get(id));
  }

  @Put(':id')
  async update(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('embedded data mapping')) id: number,
    @Body() changes: EmbeddedDataMappingDto,
  ): Promise<EmbeddedDataMappingRepresentation> {
    return this.mapper.toRepresentation(await this.mappings.update(actor, id, changes));
  }

  @Delete(':id')
  @HttpCode(204)
  async delete(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('embedded data mapping')) id: number,
  ): Promise<void> {
    await this.mappings.delete(actor, id);
  }
}
