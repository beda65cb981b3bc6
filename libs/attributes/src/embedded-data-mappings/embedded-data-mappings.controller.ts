import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Actor, ActorUser } from '@dam/access';
import { IdPipe, pagedList, PagingQuery, UrlListRoute, UrlService, XmlRoot } from '@dam/http';
import type { Response } from 'express';
import { EmbeddedDataMappingDto } from './dto/embedded-data-mapping.dto';
import {
  EMBEDDED_DATA_MAPPING_XML,
  EmbeddedDataMappingMapper,
  EmbeddedDataMappingRepresentation,
} from './embedded-data-mapping.mapper';
import { EmbeddedDataMappingsService } from './embedded-data-mappings.service';
import { EmbeddedDataMappingSchema } from '../attributes.api';

@ApiTags('embedded data mappings')
@ApiBearerAuth()
@Controller('rest/embedded-data-mappings')
export class EmbeddedDataMappingsController {
  constructor(
    private readonly mappings: EmbeddedDataMappingsService,
    private readonly mapper: EmbeddedDataMappingMapper,
    private readonly urls: UrlService,
  ) {}

  /** The URLs of every mapping, like the other base collections (Asset Bank). */
  @UrlListRoute()
  async list(@Query() query: PagingQuery, @Res({ passthrough: true }) response: Response): Promise<string[]> {
    const urls = (await this.mappings.list()).map((mapping) => this.mapper.url(mapping.mapping.id));
    return pagedList(query, response, this.urls.rest('embedded-data-mappings'), urls);
  }

  @Post()
  @XmlRoot(EMBEDDED_DATA_MAPPING_XML)
  @ApiCreatedResponse({ description: 'Created; `Location` is its URL', type: EmbeddedDataMappingSchema })
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
  @XmlRoot(EMBEDDED_DATA_MAPPING_XML)
  @ApiOkResponse({ type: EmbeddedDataMappingSchema })
  async get(
    @Param('id', new IdPipe('embedded data mapping')) id: number,
  ): Promise<EmbeddedDataMappingRepresentation> {
    return this.mapper.toRepresentation(await this.mappings.get(id));
  }

  @Put(':id')
  @XmlRoot(EMBEDDED_DATA_MAPPING_XML)
  @ApiOkResponse({ type: EmbeddedDataMappingSchema })
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
