import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { AppConfig } from '@dam/core';
import { CacheGenerations, GenerationLru } from '@dam/database';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import * as crypto from 'node:crypto';
import { EntityManager, IsNull, LessThan, Repository } from 'typeorm';
import { ActorUser } from '../actor/actor';
import { toActor } from '../actor/actor';
import { ACCESS_GENERATION, UsersRepository } from '../users/users.repository';
import { OAuthClientEntity } from './entities/oauth-client.entity';
import { OAuthTokenEntity, TokenKind } from './entities/oauth-token.entity';
import { OAuthError } from './oauth-error';

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token?: string;
}

/** Access tokens whose actor is remembered at most (least recently used first out). */
const CACHED_TOKENS = 5000;

/** A valid access token as the guard needs it: its actor, its OAuth client (`client_id`) and its expiry. */
interface TokenHolder {
  actor: ActorUser;
  clientId: string;
  expiresAt: number;
}

/** Who presents a valid access token: the user, and the OAuth client the token was issued to. */
export interface TokenBearer {
  actor: ActorUser;
  clientId: string;
}

/** crypto.hash (Node 20.12+): the one-shot digest, without a Hash object per call (once per request). */
const oneShotHash = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

export function hashToken(token: string): string {
  if (oneShotHash !== undefined) return oneShotHash('sha256', token, 'hex');
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The bearer of a held token, unless it has expired (checked on every use: the holder is cached). */
function bearerOfHolder(holder: TokenHolder): TokenBearer | undefined {
  if (holder.expiresAt <= Date.now()) return undefined;
  return { actor: holder.actor, clientId: holder.clientId };
}

/**
 * Opaque bearer tokens, stored only as SHA-256 hashes with an expiry. Refresh tokens rotate: using one
 * revokes it, and using a revoked one again revokes its whole family (a sign it was stolen).
 */
@Injectable()
export class TokensService {
  /**
   * Token hash -> actor and expiry, for unrevoked access tokens of existing users. A revocation, and any
   * change of users, bumps the 'access' generation, which empties it (on other instances within a
   * second); expiry is checked on every hit.
   */
  private readonly holders: GenerationLru<string, TokenHolder | null>;

  constructor(
    @InjectRepository(OAuthTokenEntity) private readonly tokens: Repository<OAuthTokenEntity>,
    private readonly users: UsersRepository,
    private readonly config: AppConfig,
    private readonly generations: CacheGenerations,
  ) {
    this.holders = new GenerationLru(generations, [ACCESS_GENERATION], {
      capacity: CACHED_TOKENS,
      keep: (holder) => holder !== null,
    });
  }

  /**
   * `ttlSeconds` overrides DAM_ACCESS_TOKEN_TTL_SECONDS for the access token (the CLI's issue-token).
   * `sessionExpiresAt`: when the login ends, carried over by a rotation; a new login ends
   * DAM_REFRESH_TOKEN_MAX_DAYS from now. No refresh token outlives it.
   */
  async issue(
    client: OAuthClientEntity,
    userId: number,
    options: { withRefreshToken: boolean; family?: string; ttlSeconds?: number; sessionExpiresAt?: Date },
  ): Promise<TokenResponse> {
    const family = options.family ?? randomUUID();
    const now = Date.now();
    const sessionEnd =
      options.sessionExpiresAt?.getTime() ?? now + this.config.refreshTokenMaxDays * 24 * 3600 * 1000;
    const ttlSeconds = options.ttlSeconds ?? this.config.accessTokenTtlSeconds;
    const accessToken = await this.store(
      'access',
      client,
      userId,
      family,
      now + ttlSeconds * 1000,
      sessionEnd,
    );
    const response: TokenResponse = {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: ttlSeconds,
    };
    if (options.withRefreshToken) {
      const expiresAt = Math.min(now + this.config.refreshTokenTtlSeconds * 1000, sessionEnd);
      response.refresh_token = await this.store('refresh', client, userId, family, expiresAt, sessionEnd);
    }
    return response;
  }

  /** The user a valid, unexpired, unrevoked access token belongs to. */
  async authenticate(accessToken: string): Promise<ActorUser | undefined> {
    return (await this.bearerOf(accessToken))?.actor;
  }

  /** The user and OAuth client of a valid, unexpired, unrevoked access token. */
  async bearerOf(accessToken: string): Promise<TokenBearer | undefined> {
    if (accessToken.length < 16 || accessToken.length > 200) return undefined;
    // Kept by the token itself, hashed only to look it up: the hash of every request cost more than the rest
    // of the token's check. The tokens are held in memory only, as long as their holder is.
    const holder =
      this.holders.peek(accessToken) ??
      (await this.holders.get(accessToken, (token) => this.holderOf(hashToken(token))));
    return holder === null ? undefined : bearerOfHolder(holder);
  }

  /**
   * `bearerOf` answered from memory without a promise (the auth guard's hot path): the bearer of a token
   * held while the generations are fresh; undefined when it is not held or has expired (then `bearerOf`
   * decides, with the database when it must).
   */
  heldBearerOf(accessToken: string): TokenBearer | undefined {
    const holder = this.holders.peek(accessToken);
    return holder === undefined || holder === null ? undefined : bearerOfHolder(holder);
  }

  private async holderOf(tokenHash: string): Promise<TokenHolder | null> {
    // The client's public id comes along in the same statement (for the request log).
    const { entities, raw } = await this.tokens
      .createQueryBuilder('t')
      .innerJoin(OAuthClientEntity, 'c', 'c.id = t.clientId')
      .addSelect('c.clientId', 'oauth_client_id')
      .where('t.tokenHash = :tokenHash AND t.kind = :kind AND t.revokedAt IS NULL', {
        tokenHash,
        kind: 'access',
      })
      .getRawAndEntities<{ oauth_client_id: string }>();
    const token = entities[0];
    if (token === undefined) return null;
    const user = await this.users.findById(token.userId);
    return user === null
      ? null
      : {
          actor: toActor(user),
          clientId: String(raw[0].oauth_client_id),
          expiresAt: token.expiresAt.getTime(),
        };
  }

  async refresh(client: OAuthClientEntity, refreshToken: string): Promise<TokenResponse> {
    const token = await this.tokens.findOneBy({ tokenHash: hashToken(refreshToken), kind: 'refresh' });
    if (token === null || token.clientId !== client.id) {
      throw new OAuthError(400, 'invalid_grant', 'the refresh token is invalid');
    }
    if (token.revokedAt !== null) {
      await this.revokeFamily(token.family);
      throw new OAuthError(400, 'invalid_grant', 'the refresh token has already been used or revoked');
    }
    if (token.expiresAt.getTime() <= Date.now()) {
      throw new OAuthError(400, 'invalid_grant', 'the refresh token has expired');
    }
    // Only the request that flips revoked_at from NULL wins; a concurrent replay gets nothing.
    const claimed = await this.revokeWhere({ id: token.id, revokedAt: IsNull() });
    if (claimed !== 1) {
      await this.revokeFamily(token.family);
      throw new OAuthError(400, 'invalid_grant', 'the refresh token has already been used or revoked');
    }
    // Tokens from before DAM_REFRESH_TOKEN_MAX_DAYS carry no end: their rotations never pass this one's expiry.
    const sessionExpiresAt = token.sessionExpiresAt ?? token.expiresAt;
    return this.issue(client, token.userId, {
      withRefreshToken: true,
      family: token.family,
      sessionExpiresAt,
    });
  }

  /** RFC 7009: revokes the token (and, for a refresh token, its family) if it belongs to the client. */
  async revoke(client: OAuthClientEntity, rawToken: string): Promise<void> {
    const token = await this.tokens.findOneBy({ tokenHash: hashToken(rawToken) });
    if (token === null || token.clientId !== client.id) return;
    if (token.kind === 'refresh') await this.revokeFamily(token.family);
    else await this.revokeWhere({ id: token.id, revokedAt: IsNull() });
  }

  /** Removes tokens that expired before `before`; returns how many. */
  /** How many tokens (revoked or not) expired before `before`. */
  countExpired(before: Date): Promise<number> {
    return this.tokens.countBy({ expiresAt: LessThan(before) });
  }

  /** Deletes up to `limit` tokens (revoked or not) that expired before `before`; returns how many. */
  async deleteExpiredBatch(before: Date, limit: number): Promise<number> {
    const rows = await this.tokens.find({
      select: { id: true },
      where: { expiresAt: LessThan(before) },
      order: { id: 'ASC' },
      take: limit,
    });
    if (rows.length === 0) return 0;
    const result = await this.tokens.delete(rows.map((row) => row.id));
    return result.affected ?? rows.length;
  }

  /**
   * Revokes every live token (access and refresh) of the user, through any client; returns how many.
   * Within `manager`'s transaction when given (SessionsService ends sessions in one).
   */
  revokeAllOfUser(userId: number, manager?: EntityManager): Promise<number> {
    return this.revokeWhere({ userId, revokedAt: IsNull() }, manager);
  }

  /** Revokes every live token issued to the client (its database id); returns how many. */
  revokeAllOfClient(clientId: number): Promise<number> {
    return this.revokeWhere({ clientId, revokedAt: IsNull() });
  }

  private async revokeFamily(family: string): Promise<void> {
    await this.revokeWhere({ family, revokedAt: IsNull() });
  }

  /** Revokes the matching tokens and bumps the 'access' generation with it; returns how many. */
  private async revokeWhere(
    where: {
      id?: number;
      family?: string;
      userId?: number;
      clientId?: number;
      revokedAt: ReturnType<typeof IsNull>;
    },
    within?: EntityManager,
  ) {
    const revoke = async (manager: EntityManager) => {
      const result = await manager.getRepository(OAuthTokenEntity).update(where, { revokedAt: new Date() });
      if ((result.affected ?? 0) > 0) await this.generations.bump(ACCESS_GENERATION, manager);
      return result.affected ?? 0;
    };
    return within === undefined ? this.tokens.manager.transaction(revoke) : revoke(within);
  }

  private async store(
    kind: TokenKind,
    client: OAuthClientEntity,
    userId: number,
    family: string,
    expiresAt: number,
    sessionExpiresAt: number,
  ): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.tokens.insert({
      tokenHash: hashToken(token),
      kind,
      family,
      clientId: client.id,
      userId,
      expiresAt: new Date(expiresAt),
      sessionExpiresAt: new Date(sessionExpiresAt),
      revokedAt: null,
      createdAt: new Date(),
    });
    return token;
  }
}
