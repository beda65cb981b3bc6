import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Actor, ActorUser } from '@dam/access';
import { ETagged, IdPipe, pagedList, PagingQuery, UrlListRoute, UrlService, XmlRoot } from '@dam/http';
import type { Response } from 'express';
import { ATTRIBUTE_XML, AttributeMapper, AttributeRepresentation } from './attribute.mapper';
import { AttributesService } from './attributes.service';
import { CreateAttributeDto, UpdateAttributeDto } from './dto/attribute.dto';
import { AttributeSchema } from '../attributes.api';

@ApiTags('attributes')
@ApiBearerAuth()
@Controller('rest/attributes')
export class AttributesController {
  constructor(
    private readonly attributes: AttributesService,
    private readonly mapper: AttributeMapper,
    private readonly urls: UrlService,
  ) {}

  @ETagged()
  @UrlListRoute()
  async list(@Query() query: PagingQuery, @Res({ passthrough: true }) response: Response): Promise<string[]> {
    const urls = (await this.attributes.list()).map((attribute) => this.mapper.url(attribute.id));
    return pagedList(query, response, this.urls.rest('attributes'), urls);
  }

  @Post()
  @XmlRoot(ATTRIBUTE_XML)
  @ApiCreatedResponse({ description: 'Created; `Location` is its URL', type: AttributeSchema })
  async create(
    @Actor() actor: ActorUser,
    @Body() request: CreateAttributeDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<AttributeRepresentation> {
    const attribute = await this.attributes.create(actor, request);
    response.status(201).location(this.mapper.url(attribute.id));
    return this.mapper.toRepresentation(attribute);
  }

  @ETagged()
  @Get(':id')
  @XmlRoot(ATTRIBUTE_XML)
  @ApiOkResponse({ type: AttributeSchema })
  async get(@Param('id', new IdPipe('attribute')) id: number): Promise<AttributeRepresentation> {
    return this.mapper.toRepresentation(await this.attributes.get(id));
  }

  @Put(':id')
  @XmlRoot(ATTRIBUTE_XML)
  @ApiOkResponse({ type: AttributeSchema })
  async update(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('attribute')) id: number,
    @Body() changes: UpdateAttributeDto,
  ): Promise<AttributeRepresentation> {
    return this.mapper.toRepresentation(await this.attributes.update(actor, id, changes));
  }

  @Delete(':id')
  @HttpCode(204)
  async delete(@Actor() actor: ActorUser, @Param('id', new IdPipe('attribute')) id: number): Promise<void> {
    await this.attributes.delete(actor, id);
  }
}
