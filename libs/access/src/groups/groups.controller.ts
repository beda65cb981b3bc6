import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { IdPipe, Paging, urlList, UrlService, XmlRoot, XmlUrls } from '@dam/platform';
import type { Response } from 'express';
import { ActorUser } from '../auth/actor';
import { Actor } from '../auth/actor.decorator';
import { GroupWriteDto } from './dto/group-write.dto';
import { GROUP_XML, GroupMapper, GroupRepresentation } from './group.mapper';
import { GroupsService } from './groups.service';

@ApiTags('groups')
@ApiBearerAuth()
@Controller('rest/groups')
export class GroupsController {
  constructor(
    private readonly groups: GroupsService,
    private readonly mapper: GroupMapper,
    private readonly urls: UrlService,
  ) {}

  @Get()
  @XmlUrls()
  list(
    @Actor() actor: ActorUser,
    @Query() query: Record<string, unknown>,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string[]> {
    const load = (paging: Paging | undefined) => this.groups.listIds(actor, paging);
    return urlList(query, response, this.urls.rest('groups'), load, (id) => this.mapper.url(id));
  }

  @Post()
  @XmlRoot(GROUP_XML)
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
  async get(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('group')) id: number,
  ): Promise<GroupRepresentation> {
    return this.mapper.toRepresentation(await this.groups.get(actor, id));
  }

  @Put(':id')
  @XmlRoot(GROUP_XML)
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
