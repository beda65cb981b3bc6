import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { IdPipe, pagedList, UrlListRoute, UrlService, XmlRoot } from '@dam/http';
import type { Response } from 'express';
import { ActorUser } from '../actor/actor';
import { Actor } from '../actor/actor.decorator';
import { GroupWriteDto } from './dto/group-write.dto';
import { GROUP_XML, GroupMapper, GroupRepresentation } from './group.mapper';
import { GroupsService } from './groups.service';
import { GroupSchema } from './groups.api';

@ApiTags('groups')
@ApiBearerAuth()
@Controller('rest/groups')
export class GroupsController {
  constructor(
    private readonly groups: GroupsService,
    private readonly mapper: GroupMapper,
    private readonly urls: UrlService,
  ) {}

  @UrlListRoute()
  async list(
    @Actor() actor: ActorUser,
    @Query() query: Record<string, unknown>,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string[]> {
    const { ids } = await pagedList(query, response, this.urls.rest('groups'), (paging) =>
      this.groups.listIds(actor, paging),
    );
    return ids.map((id) => this.mapper.url(id));
  }

  @Post()
  @XmlRoot(GROUP_XML)
  @ApiCreatedResponse({ description: 'Created; `Location` is its URL', type: GroupSchema })
  async create(
    @Actor() actor: ActorUser,
    @Body() body: GroupWriteDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<GroupRepresentation> {
    const group = await this.groups.create(actor, body);
    response.status(201).location(this.mapper.url(group.id));
    return this.mapper.toRepresentation(group);
  }

  @Get(':id')
  @XmlRoot(GROUP_XML)
  @ApiOkResponse({ type: GroupSchema })
  async get(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('group')) id: number,
  ): Promise<GroupRepresentation> {
    return this.mapper.toRepresentation(await this.groups.get(actor, id));
  }

  @Put(':id')
  @XmlRoot(GROUP_XML)
  @ApiOkResponse({ type: GroupSchema })
  async update(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('group')) id: number,
    @Body() body: GroupWriteDto,
  ): Promise<GroupRepresentation> {
    return this.mapper.toRepresentation(await this.groups.update(actor, id, body));
  }

  @Delete(':id')
  @HttpCode(204)
  async delete(@Actor() actor: ActorUser, @Param('id', new IdPipe('group')) id: number): Promise<void> {
    await this.groups.delete(actor, id);
  }
}
