import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiErrors, ApiPaging, IdPipe, UrlService, XmlRoot, XmlUrls, pagedList } from '@dam/http';
import type { Response } from 'express';
import { ActorUser } from '../actor/actor';
import { Actor } from '../actor/actor.decorator';
import { UpdateUserDto } from './dto/update-user.dto';
import { UserSchema } from './users.api';
import { USER_XML, UserMapper, UserRepresentation } from './user.mapper';
import { UsersService } from './users.service';

@ApiTags('users')
@ApiBearerAuth()
@Controller('rest/users')
export class UsersController {
  constructor(
    private readonly users: UsersService,
    private readonly mapper: UserMapper,
    private readonly urls: UrlService,
  ) {}

  @Get()
  @ApiPaging()
  @ApiOkResponse({ description: 'The URLs of the users', type: String, isArray: true })
  @XmlUrls()
  async list(
    @Actor() actor: ActorUser,
    @Query() query: Record<string, unknown>,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string[]> {
    const { ids } = await pagedList(query, response, this.urls.rest('users'), (paging) =>
      this.users.listIds(actor, paging),
    );
    return ids.map((id) => this.mapper.url(id));
  }

  @Post()
  @ApiQuery({ name: 'username', required: true, type: String })
  @ApiCreatedResponse({ description: 'Created; `Location` is its URL', type: UserSchema })
  @ApiErrors(409)
  @XmlRoot(USER_XML)
  async create(
    @Actor() actor: ActorUser,
    @Query('username') username: unknown,
    @Res({ passthrough: true }) response: Response,
  ): Promise<UserRepresentation> {
    const user = await this.users.create(actor, username);
    response.status(201).location(this.mapper.url(user.id));
    return this.mapper.toRepresentation(user);
  }

  /** Not detailed by the spec: deletes the user named by `?username=`, mirroring creation. */
  @Delete()
  @ApiQuery({ name: 'username', required: true, type: String })
  @HttpCode(204)
  async deleteByUsername(@Actor() actor: ActorUser, @Query('username') username: unknown): Promise<void> {
    await this.users.deleteByUsername(actor, username);
  }

  @Get(':id')
  @ApiOkResponse({ type: UserSchema })
  @XmlRoot(USER_XML)
  async get(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('user')) id: number,
  ): Promise<UserRepresentation> {
    return this.mapper.toRepresentation(await this.users.get(actor, id));
  }

  @Put(':id')
  @ApiOkResponse({ type: UserSchema })
  @ApiErrors(409)
  @XmlRoot(USER_XML)
  async update(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('user')) id: number,
    @Body() changes: UpdateUserDto,
  ): Promise<UserRepresentation> {
    return this.mapper.toRepresentation(await this.users.update(actor, id, changes));
  }

  @Delete(':id')
  @HttpCode(204)
  async delete(@Actor() actor: ActorUser, @Param('id', new IdPipe('user')) id: number): Promise<void> {
    await this.users.delete(actor, id);
  }
}
