import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Actor, ActorUser } from '@dam/access';
import {
  ApiPaging,
  IdPipe,
  pagedList,
  PagingQuery,
  UrlListRoute,
  UrlService,
  XmlRoot,
  XmlUrls,
} from '@dam/http';
import type { Response } from 'express';
import { KeywordDto } from './dto/keyword.dto';
import { KEYWORD_XML, KeywordMapper, KeywordRepresentation } from './keyword.mapper';
import { KeywordsService } from './keywords.service';
import { KeywordSchema } from '../attributes.api';

@ApiTags('keywords')
@ApiBearerAuth()
@Controller('rest')
export class KeywordsController {
  constructor(
    private readonly keywords: KeywordsService,
    private readonly mapper: KeywordMapper,
    private readonly urls: UrlService,
  ) {}

  /**
   * The URLs of the top-level keywords of one keywords-type attribute (siblings by name), like the other
   * base collections; each answers the keyword with its subtree.
   */
  @Get('attributes/:attributeId/keywords')
  @XmlUrls()
  @ApiPaging()
  @ApiOkResponse({ description: 'The URLs of its top-level keywords', type: String, isArray: true })
  async listOfAttribute(
    @Param('attributeId', new IdPipe('attribute')) attributeId: number,
    @Query() query: PagingQuery,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string[]> {
    const urls = (await this.keywords.treeOfAttribute(attributeId)).map((node) =>
      this.mapper.url(node.item.id),
    );
    return pagedList(query, response, this.urls.rest('attributes', attributeId, 'keywords'), urls);
  }

  /** The URLs of every keyword (of one attribute with `attributeId`), like the other base collections. */
  @UrlListRoute('keywords')
  @ApiQuery({ name: 'attributeId', required: false, type: Number })
  async list(
    @Query() query: PagingQuery & { attributeId?: unknown },
    @Res({ passthrough: true }) response: Response,
  ): Promise<string[]> {
    const urls = (await this.keywords.listIds(query.attributeId)).map((id) => this.mapper.url(id));
    return pagedList(query, response, this.urls.rest('keywords'), urls);
  }

  @Post('keywords')
  @ApiCreatedResponse({ description: 'Created; `Location` is its URL', type: KeywordSchema })
  @XmlRoot(KEYWORD_XML)
  async create(
    @Actor() actor: ActorUser,
    @Body() request: KeywordDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<KeywordRepresentation> {
    const node = await this.keywords.create(actor, request);
    response.status(201).location(this.mapper.url(node.item.id));
    return this.mapper.toRepresentation(node);
  }

  @Get('keywords/:id')
  @ApiOkResponse({ type: KeywordSchema })
  @XmlRoot(KEYWORD_XML)
  async get(@Param('id', new IdPipe('keyword')) id: number): Promise<KeywordRepresentation> {
    return this.mapper.toRepresentation(await this.keywords.get(id));
  }

  @Put('keywords/:id')
  @ApiOkResponse({ type: KeywordSchema })
  @XmlRoot(KEYWORD_XML)
  async update(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('keyword')) id: number,
    @Body() changes: KeywordDto,
  ): Promise<KeywordRepresentation> {
    return this.mapper.toRepresentation(await this.keywords.update(actor, id, changes));
  }

  @Delete('keywords/:id')
  @HttpCode(204)
  async delete(@Actor() actor: ActorUser, @Param('id', new IdPipe('keyword')) id: number): Promise<void> {
    await this.keywords.delete(actor, id);
  }
}
