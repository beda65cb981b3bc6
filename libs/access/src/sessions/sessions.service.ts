import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { TokensService } from '../oauth/tokens.service';
import { ActorUser } from '../actor/actor';
import { isSelfOrAdmin } from '../actor/policy';
import { NotPermitted, UnknownResource } from '@dam/errors';
import { SessionEnder } from '../users/session-ender';
import { UsersRepository } from '../users/users.repository';

/**
 * Ending a user's sessions: every access and refresh token revoked, and the user's credential generation
 * raised so the URLs they signed stop working, in one transaction. Every instance sees it at once for
 * signed URLs (read from the database on each use) and refresh tokens, and within GENERATIONS_REFRESH_MS
 * (1 s) for access tokens (their cache follows the 'access' generation the revocation bumps).
 */
@Injectable()
export class SessionsService implements SessionEnder {
  constructor(
    private readonly users: UsersRepository,
    private readonly tokens: TokensService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /**
   * Ends every session of the user: tokens revoked, URLs they signed invalid. Admins (and the
   * application user) for anyone; a user for themself ("sign out everywhere").
   */
  async revoke(actor: ActorUser, userId: number): Promise<void> {
    if (!isSelfOrAdmin(actor, userId))
      throw new NotPermitted("only administrators may end other users' sessions");
    if (!(await this.users.exists(userId))) throw new UnknownResource(`user ${userId} does not exist`);
    await this.endAll(userId);
  }

  /** Ends every session of the user (in `within`'s transaction when given); returns the tokens revoked. */
  async endAll(userId: number, within?: EntityManager): Promise<number> {
    const end = async (manager: EntityManager) => {
      await this.users.raiseCredentialGeneration(userId, manager);
      return this.tokens.revokeAllOfUser(userId, manager);
    };
    return within === undefined ? this.dataSource.transaction(end) : end(within);
  }
}
