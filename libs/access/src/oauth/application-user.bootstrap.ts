import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '@dam/core';
import { isUniqueViolation } from '@dam/database';
import { ActorUser, toActor } from '../actor/actor';
import { UserEntity } from '../users/entities/user.entity';
import { PasswordHasher } from '../users/password-hasher';
import { UsersRepository } from '../users/users.repository';
import { OAuthClientsService } from './oauth-clients.service';

export const APPLICATION_USERNAME = 'application';

/**
 * Ensures at boot that the application user exists and that its OAuth client matches
 * DAM_CLIENT_ID / DAM_CLIENT_SECRET. Without those variables and without any client, one is generated
 * and its secret printed once: it cannot be recovered later.
 */
@Injectable()
export class ApplicationUserBootstrap implements OnModuleInit {
  private readonly logger = new Logger('ApplicationUser');

  constructor(
    private readonly config: AppConfig,
    private readonly users: UsersRepository,
    private readonly clients: OAuthClientsService,
    private readonly hasher: PasswordHasher,
  ) {}

  async onModuleInit(): Promise<void> {
    const user = await this.ensureApplicationUser();
    await this.ensureClient(user);
  }

  /** The application user as an actor, created when missing. */
  async ensureApplicationUser(): Promise<ActorUser> {
    const existing = await this.users.findApplicationUser();
    if (existing !== null) return toActor(existing);
    const now = new Date();
    try {
      const created = await this.users.save(
        Object.assign(new UserEntity(), {
          username: APPLICATION_USERNAME,
          emailAddress: null,
          forename: null,
          surname: null,
          passwordHash: null,
          isAdmin: true,
          isApplication: true,
          groups: [],
          createdAt: now,
          updatedAt: now,
        }),
      );
      return toActor(created);
    } catch (error) {
      // Another instance booting at the same moment created it first.
      const created = await this.users.findApplicationUser();
      if (created !== null && (isUniqueViolation(error) || error instanceof Error)) return toActor(created);
      throw error;
    }
  }

  private async ensureClient(user: ActorUser): Promise<void> {
    const { clientId, clientSecret } = this.config;
    if (clientId !== undefined && clientSecret !== undefined) {
      const client = await this.clients.findByClientId(clientId);
      if (client === null) {
        await this.clients.create(user.id, 'application', { clientId, clientSecret }).catch(async (error) => {
          if ((await this.clients.findByClientId(clientId)) === null) throw error;
        });
        this.logger.log(`OAuth client ${clientId} created for the application user`);
      } else if (!(await this.hasher.verify(clientSecret, client.secretHash))) {
        await this.clients.replaceSecret(client, clientSecret);
        this.logger.log(`OAuth client ${clientId}: secret updated from DAM_CLIENT_SECRET`);
      }
      return;
    }
    if ((await this.clients.count()) > 0) return;
    const { client, secret } = await this.clients.create(user.id, 'application');
    // The only time a secret is ever logged: it was generated here and exists nowhere else.
    this.logger.warn(
      `generated the application's OAuth client (shown once, store it now): client_id=${client.clientId} client_secret=${secret}`,
    );
  }
}
