import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { InvalidInput } from '@dam/errors';
import { parseBoolean, XmlList, XmlRoot } from '@dam/http';
import { ActorUser } from '../actor/actor';
import { Actor } from '../actor/actor.decorator';
import { USER_XML, UserMapper, UserRepresentation } from './user.mapper';
import { UserSchema } from './users.api';
import { UsersService } from './users.service';

const TEXT_FIELDS = ['username', 'emailAddress', 'forename', 'surname'] as const;

@ApiTags('users')
@ApiBearerAuth()
@Controller('rest')
export class UserSearchController {
  constructor(
    private readonly users: UsersService,
    private readonly mapper: UserMapper,
  ) {}

  @Get('authenticated-user')
  @ApiOkResponse({ type: UserSchema })
  @XmlRoot(USER_XML)
  async authenticatedUser(@Actor() actor: ActorUser): Promise<UserRepresentation> {
    return this.mapper.toRepresentation(await this.users.getOrThrow(actor.id));
  }

  @Get('user-search')
  @ApiQuery({ name: 'username', required: false })
  @ApiQuery({ name: 'emailAddress', required: false })
  @ApiQuery({ name: 'forename', required: false })
  @ApiQuery({ name: 'surname', required: false })
  @ApiQuery({ name: 'exactTextMatch', required: false, type: Boolean })
  @ApiOkResponse({ type: UserSchema, isArray: true })
  @XmlList('users', USER_XML)
  async search(
    @Actor() actor: ActorUser,
    @Query() query: Record<string, unknown>,
  ): Promise<UserRepresentation[]> {
    const criteria: Record<string, string> = {};
    for (const field of TEXT_FIELDS) {
      const value = query[field];
      if (value === undefined || value === '') continue;
      if (typeof value !== 'string') throw new InvalidInput(`${field} must be given once`);
      criteria[field] = value;
    }
    const exactTextMatch = parseBoolean(query.exactTextMatch, 'exactTextMatch') ?? false;
    const users = await this.users.search(actor, { ...criteria, exactTextMatch });
    return users.map((user) => this.mapper.toRepresentation(user));
  }
}
