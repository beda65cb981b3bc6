import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CacheGenerationsModule } from '@dam/database';
import { RootLinks } from '@dam/http';
import { AuthGuard } from './auth/auth.guard';
import { GroupPermissionEntity } from './groups/entities/group-permission.entity';
import { GroupMapper } from './groups/group.mapper';
import { GroupsController } from './groups/groups.controller';
import { GroupsRepository } from './groups/groups.repository';
import { GroupsService } from './groups/groups.service';
import { IdentityModule } from './identity.module';
import { PermissionsModule } from './permissions/permissions.module';
import { UserSearchController } from './users/user-search.controller';
import { UserMapper } from './users/user.mapper';
import { UsersController } from './users/users.controller';
import { SessionsController } from './sessions/sessions.controller';

/**
 * The access area for the API: identity (users, OAuth, actors), permissions, groups, the users and groups
 * routes and the authentication guard. Other areas import this for PermissionsService and ActorService.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([GroupPermissionEntity]),
    CacheGenerationsModule,
    IdentityModule,
    PermissionsModule,
  ],
  controllers: [UsersController, SessionsController, UserSearchController, GroupsController],
  providers: [UserMapper, GroupsRepository, GroupsService, GroupMapper, AuthGuard],
  exports: [IdentityModule, PermissionsModule, UserMapper, AuthGuard],
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
