import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Actor, ActorUser } from '@dam/access';
import { IdPipe, PagingQuery, UrlService, XmlList, XmlRoot, pagedList } from '@dam/http';
import type { Response } from 'express';
import { CreateListValueDto, CreateListValueForAnyAttributeDto } from './dto/list-value.dto';
import { LIST_VALUE_XML, ListValueMapper, ListValueRepresentation } from './list-value.mapper';
import { ListValuesService } from './list-values.service';
import { ListValueSchema } from '../attributes.api';

/** Spec 4.7: the values of one list attribute. */
@ApiTags('list attribute values')
@ApiBearerAuth()
@Controller('rest/attributes/:attributeId/list-attribute-values')
export class AttributeListValuesController {
  constructor(
    private readonly values: ListValuesService,
    private readonly mapper: ListValueMapper,
  ) {}

  @Get()
  @ApiOkResponse({ type: ListValueSchema, isArray: true })
  @XmlList('listAttributeValues', LIST_VALUE_XML)
  async list(
    @Param('attributeId', new IdPipe('attribute')) attributeId: number,
  ): Promise<ListValueRepresentation[]> {
    return (await this.values.listOfAttribute(attributeId)).map((value) =>
      this.mapper.toRepresentation(value),
    );
  }

  @Post()
  @ApiCreatedResponse({ description: 'Created; `Location` is its URL', type: ListValueSchema })
  @XmlRoot(LIST_VALUE_XML)
  async create(
    @Actor() actor: ActorUser,
    @Param('attributeId', new IdPipe('attribute')) attributeId: number,
    @Body() request: CreateListValueDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<ListValueRepresentation> {
    const value = await this.values.addToAttribute(actor, attributeId, request);
    response.status(201).location(this.mapper.url(value.id));
    return this.mapper.toRepresentation(value);
  }
}

/** Every list value, and each one by id. */
@ApiTags('list attribute values')
@ApiBearerAuth()
@Controller('rest/list-attribute-values')
export class ListAttributeValuesController {
  constructor(
    private readonly values: ListValuesService,
    private readonly mapper: ListValueMapper,
    private readonly urls: UrlService,
  ) {}

  @Get()
  @ApiOkResponse({ type: ListValueSchema, isArray: true })
  @XmlList('listAttributeValues', LIST_VALUE_XML)
  async list(
    @Query() query: PagingQuery & { attributeId?: unknown },
    @Res({ passthrough: true }) response: Response,
  ): Promise<ListValueRepresentation[]> {
    const values = (await this.values.list(query.attributeId)).map((value) =>
      this.mapper.toRepresentation(value),
    );
    return pagedList(query, response, this.urls.rest('list-attribute-values'), values);
  }

  @Post()
  @ApiCreatedResponse({ description: 'Created; `Location` is its URL', type: ListValueSchema })
  @XmlRoot(LIST_VALUE_XML)
  async create(
    @Actor() actor: ActorUser,
    @Body() request: CreateListValueForAnyAttributeDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<ListValueRepresentation> {
    const value = await this.values.addToNamedAttribute(actor, request);
    response.status(201).location(this.mapper.url(value.id));
    return this.mapper.toRepresentation(value);
  }

  @Get(':id')
  @ApiOkResponse({ type: ListValueSchema })
  @XmlRoot(LIST_VALUE_XML)
  async get(@Param('id', new IdPipe('list attribute value')) id: number): Promise<ListValueRepresentation> {
    return this.mapper.toRepresentation(await this.values.get(id));
  }

  @Delete(':id')
  @HttpCode(204)
  async delete(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('list attribute value')) id: number,
  ): Promise<void> {
    await this.values.delete(actor, id);
  }
}
