import { Module } from '@nestjs/common';
import { CacheGenerationsModule } from '@dam/database';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ActorService } from './auth/actor.service';
import { ApplicationUserBootstrap } from './oauth/application-user.bootstrap';
import { OAuthClientEntity } from './oauth/entities/oauth-client.entity';
import { OAuthTokenEntity } from './oauth/entities/oauth-token.entity';
import { LoginThrottle } from './oauth/login-throttle';
import { OAuthClientsService } from './oauth/oauth-clients.service';
import { OAuthService } from './oauth/oauth.service';
import { PurgeExpiredTokensJob } from './oauth/purge-expired-tokens.job';
import { TokensService } from './oauth/tokens.service';
import { SessionsService } from './sessions/sessions.service';
import { SessionEnder } from './users/session-ender';
import { GroupEntity } from './users/entities/group.entity';
import { UserEntity } from './users/entities/user.entity';
import { PasswordHasher } from './users/password-hasher';
import { UsersRepository } from './users/users.repository';
import { UsersService } from './users/users.service';
import { OidcAuthenticator } from './oidc/oidc.authenticator';
import { OidcUsers } from './oidc/oidc-users';

/**
 * Who is calling: users, OAuth clients and tokens, actor resolution and the application user. Needs
 * nothing from other areas, so the CLI boots with it alone (no permissions, no access levels).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([UserEntity, GroupEntity, OAuthClientEntity, OAuthTokenEntity]),
    CacheGenerationsModule,
  ],
  providers: [
    PasswordHasher,
    UsersRepository,
    UsersService,
    ActorService,
    OAuthClientsService,
    TokensService,
    PurgeExpiredTokensJob,
    LoginThrottle,
    OAuthService,
    SessionsService,
    { provide: SessionEnder, useExisting: SessionsService },
    ApplicationUserBootstrap,
    OidcUsers,
    OidcAuthenticator,
  ],
  exports: [
    OidcAuthenticator,
    UsersService,
    ActorService,
    OAuthService,
    OAuthClientsService,
    TokensService,
    ApplicationUserBootstrap,
    PasswordHasher,
    SessionsService,
    LoginThrottle,
  ],
})
export class IdentityModule {}
