import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  ParseArrayPipe,
  Post,
  Put,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { Actor, ActorUser } from '@dam/access';
import {
  ETagged,
  IdPipe,
  pagedList,
  QueryParams,
  UrlListRoute,
  UrlService,
  XmlList,
  XmlRoot,
} from '@dam/http';
import type { Request, Response } from 'express';
import { ACCESS_LEVEL_XML, AccessLevelMapper, AccessLevelRepresentation } from './access-level.mapper';
import { AccessLevelsService } from './access-levels.service';
import { AccessLevelBulkWriteDto, AccessLevelWriteDto } from './dto/access-level-write.dto';
import { countScopeOf, idsFromQuery } from './access-level-query';
import { AccessLevelSchema } from './access-levels.api';

const bulkBody = new ParseArrayPipe({ items: AccessLevelBulkWriteDto, whitelist: true });

@ApiTags('access-levels')
@ApiBearerAuth()
@Controller('rest/access-levels')
export class AccessLevelsController {
  constructor(
    private readonly levels: AccessLevelsService,
    private readonly mapper: AccessLevelMapper,
    private readonly urls: UrlService,
  ) {}

  @ETagged()
  @UrlListRoute()
  async list(
    @Actor() actor: ActorUser,
    @Query() query: Record<string, unknown>,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string[]> {
    const { ids } = await pagedList(query, response, this.urls.rest('access-levels'), (paging) =>
      this.levels.listIds(actor, paging),
    );
    return ids.map((id) => this.mapper.url(id));
  }

  @Post()
  @XmlRoot(ACCESS_LEVEL_XML)
  @ApiCreatedResponse({ description: 'Created; `Location` is its URL', type: AccessLevelSchema })
  async create(
    @Actor() actor: ActorUser,
    @Body() body: AccessLevelWriteDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<AccessLevelRepresentation> {
    const view = await this.levels.create(actor, body);
    response.status(201).location(this.mapper.url(view.level.id));
    return this.mapper.toRepresentation(view);
  }

  /** Not detailed by the spec: updates several levels at once, each named by its `url`. */
  @Put()
  @ApiBody({ type: [AccessLevelBulkWriteDto] })
  @XmlList('accessLevels', ACCESS_LEVEL_XML)
  @ApiOkResponse({ type: AccessLevelSchema, isArray: true })
  async updateMany(
    @Actor() actor: ActorUser,
    @Body(bulkBody) body: AccessLevelBulkWriteDto[],
  ): Promise<AccessLevelRepresentation[]> {
    const writes = body.map((input) => ({
      id: this.urls.parseIdOrThrow(input.url, 'access-levels', 'an access level', 'url'),
      input,
      namedBy: input.url,
    }));
    const views = await this.levels.update(actor, writes);
    return views.map((view) => this.mapper.toRepresentation(view));
  }

  /** Not detailed by the spec: deletes the levels named by `?id=` (repeated or comma-separated). */
  @Delete()
  @ApiQuery({ name: 'id', required: true, type: [Number], style: 'form', explode: true })
  @HttpCode(204)
  async deleteMany(@Actor() actor: ActorUser, @Req() request: Request): Promise<void> {
    await this.levels.delete(actor, idsFromQuery(QueryParams.fromUrl(request.originalUrl), 'id'));
  }

  @ETagged()
  @Get(':id')
  @XmlRoot(ACCESS_LEVEL_XML)
  @ApiOkResponse({ type: AccessLevelSchema })
  async get(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('access level')) id: number,
    @Query('userId') userId: unknown,
  ): Promise<AccessLevelRepresentation> {
    return this.mapper.toRepresentation(await this.levels.get(actor, id, countScopeOf(userId)));
  }

  @Put(':id')
  @XmlRoot(ACCESS_LEVEL_XML)
  @ApiOkResponse({ type: AccessLevelSchema })
  async update(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('access level')) id: number,
    @Body() input: AccessLevelWriteDto,
  ): Promise<AccessLevelRepresentation> {
    const [view] = await this.levels.update(actor, [{ id, input }]);
    return this.mapper.toRepresentation(view);
  }

  @Delete(':id')
  @HttpCode(204)
  async delete(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('access level')) id: number,
  ): Promise<void> {
    await this.levels.delete(actor, [id]);
  }
}
