import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Actor, ActorUser } from '@dam/access';
import { IdPipe, pagedList, PagingQuery, UrlListRoute, UrlService, XmlRoot } from '@dam/http';
import type { Response } from 'express';
import { DISPLAY_GROUP_XML, DisplayGroupMapper, DisplayGroupRepresentation } from './display-group.mapper';
import { DisplayGroupsService } from './display-groups.service';
import { DisplayGroupDto } from './dto/display-group.dto';
import { DisplayGroupSchema } from '../attributes.api';

/** Served at the plural path; spec 4.9's singular `display-attribute-group` is an alias. */
@ApiTags('display attribute groups')
@ApiBearerAuth()
@Controller(['rest/display-attribute-groups', 'rest/display-attribute-group'])
export class DisplayGroupsController {
  constructor(
    private readonly groups: DisplayGroupsService,
    private readonly mapper: DisplayGroupMapper,
    private readonly urls: UrlService,
  ) {}

  /** The URLs of every group, like the other base collections (Asset Bank). */
  @UrlListRoute()
  async list(@Query() query: PagingQuery, @Res({ passthrough: true }) response: Response): Promise<string[]> {
    const urls = (await this.groups.list()).map((group) => this.mapper.url(group.group.id));
    return pagedList(query, response, this.urls.rest('display-attribute-groups'), urls);
  }

  @Post()
  @XmlRoot(DISPLAY_GROUP_XML)
  @ApiCreatedResponse({ description: 'Created; `Location` is its URL', type: DisplayGroupSchema })
  async create(
    @Actor() actor: ActorUser,
    @Body() request: DisplayGroupDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<DisplayGroupRepresentation> {
    const group = await this.groups.create(actor, request);
    response.status(201).location(this.mapper.url(group.group.id));
    return this.mapper.toRepresentation(group);
  }

  @Get(':id')
  @XmlRoot(DISPLAY_GROUP_XML)
  @ApiOkResponse({ type: DisplayGroupSchema })
  async get(
    @Param('id', new IdPipe('display attribute group')) id: number,
  ): Promise<DisplayGroupRepresentation> {
    return this.mapper.toRepresentation(await this.groups.get(id));
  }

  @Put(':id')
  @XmlRoot(DISPLAY_GROUP_XML)
  @ApiOkResponse({ type: DisplayGroupSchema })
  async update(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('display attribute group')) id: number,
    @Body() changes: DisplayGroupDto,
  ): Promise<DisplayGroupRepresentation> {
    return this.mapper.toRepresentation(await this.groups.update(actor, id, changes));
  }

  @Delete(':id')
  @HttpCode(204)
  async delete(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('display attribute group')) id: number,
  ): Promise<void> {
    await this.groups.delete(actor, id);
  }
}
