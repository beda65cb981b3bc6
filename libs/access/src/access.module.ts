import { Module, OnModuleInit } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RootLinks } from '@dam/platform';
import { ActorService } from './auth/actor.service';
import { AuthGuard } from './auth/auth.guard';
import { GroupPermissionEntity } from './groups/entities/group-permission.entity';
import { GroupMapper } from './groups/group.mapper';
import { GroupsController } from './groups/groups.controller';
import { GroupsRepository } from './groups/groups.repository';
import { GroupsService } from './groups/groups.service';
import { ApplicationUserBootstrap } from './oauth/application-user.bootstrap';
import { OAuthClientEntity } from './oauth/entities/oauth-client.entity';
import { OAuthTokenEntity } from './oauth/entities/oauth-token.entity';
import { OAuthClientsService } from './oauth/oauth-clients.service';
import { OAuthService } from './oauth/oauth.service';
import { TokenCleanupJob } from './oauth/token-cleanup.job';
import { TokensService } from './oauth/tokens.service';
import { PermissionsRepository } from './permissions/permissions.repository';
import { PermissionsService } from './permissions/permissions.service';
import { GroupEntity } from './users/entities/group.entity';
import { UserEntity } from './users/entities/user.entity';
import { PasswordHasher } from './users/password-hasher';
import { UserSearchController } from './users/user-search.controller';
import { UserMapper } from './users/user.mapper';
import { UsersController } from './users/users.controller';
import { UsersRepository } from './users/users.repository';
import { UsersService } from './users/users.service';

/** Users, OAuth clients and tokens, the authentication guard and actor resolution. */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      UserEntity,
      GroupEntity,
      GroupPermissionEntity,
      OAuthClientEntity,
      OAuthTokenEntity,
    ]),
  ],
  controllers: [UsersController, UserSearchController, GroupsController],
  providers: [
    PasswordHasher,
    UsersRepository,
    UsersService,
    UserMapper,
    ActorService,
    OAuthClientsService,
    TokensService,
    TokenCleanupJob,
    OAuthService,
    ApplicationUserBootstrap,
    PermissionsRepository,
    PermissionsService,
    GroupsRepository,
    GroupsService,
    GroupMapper,
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [
    UsersService,
    UsersRepository,
    UserMapper,
    ActorService,
    OAuthService,
    OAuthClientsService,
    TokensService,
    ApplicationUserBootstrap,
    PasswordHasher,
    PermissionsService,
  ],
})
export class AccessModule implements OnModuleInit {
  constructor(private readonly rootLinks: RootLinks) {}

  onModuleInit(): void {
    this.rootLinks.register('usersUrl', 'users');
    this.rootLinks.register('userSearchUrl', 'user-search');
    this.rootLinks.register('authenticatedUserUrl', 'authenticated-user');
    this.rootLinks.register('groupsUrl', 'groups');
  }
}
