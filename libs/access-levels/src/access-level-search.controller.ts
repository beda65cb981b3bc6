import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Actor, ActorUser } from '@dam/access';
import { parseBoolean, parseOptionalId, XmlList } from '@dam/http';
import { countScopeOf } from './access-level-query';
import { ACCESS_LEVEL_XML, AccessLevelMapper, AccessLevelSearchNode } from './access-level.mapper';
import { AccessLevelsService } from './access-levels.service';
import { AccessLevelSearchNodeSchema } from './access-levels.api';

/**
 * Spec 4.1 item 9: the trees of levels the actor (the caller, or the user named by `userId`) may view.
 * Open to every authenticated user; what they see is decided by their permissions.
 */
@ApiTags('access-levels')
@ApiBearerAuth()
@Controller('rest/access-level-search')
export class AccessLevelSearchController {
  constructor(
    private readonly levels: AccessLevelsService,
    private readonly mapper: AccessLevelMapper,
  ) {}

  @Get()
  @ApiOkResponse({ type: AccessLevelSearchNodeSchema, isArray: true })
  @ApiQuery({ name: 'parentId', required: false, type: Number })
  @ApiQuery({ name: 'userId', required: false, type: Number })
  @ApiQuery({ name: 'count', required: false, type: Boolean })
  @XmlList('accessLevels', ACCESS_LEVEL_XML)
  async search(
    @Actor() actor: ActorUser,
    @Query('parentId') rawParentId: unknown,
    @Query('userId') userId: unknown,
    @Query('count') rawCount: unknown,
  ): Promise<AccessLevelSearchNode[]> {
    const parentId = parseOptionalId(rawParentId, 'parentId');
    const counts = (parseBoolean(rawCount, 'count') ?? false) ? countScopeOf(userId) : 'none';
    const forest = await this.levels.search(actor, parentId, counts);
    return forest.map((view) => this.mapper.toSearchNode(view));
  }
}
