import { Injectable, Logger } from '@nestjs/common';
import { AppConfig, OidcSettings } from '@dam/core';
import { CacheGenerations, GenerationLru } from '@dam/database';
import { NotAuthenticated } from '@dam/errors';
import { ActorUser, Principal } from '../actor/actor';
import { hashToken } from '../oauth/tokens.service';
import { ACCESS_GENERATION } from '../users/users.repository';
import { UsersService } from '../users/users.service';
import { identityOf, UnusableClaim } from './claims';
import { OidcKeys } from './oidc-keys';
import { CLOCK_LEEWAY_SECONDS, JwtRefused, OidcTokenVerifier } from './oidc-token-verifier';
import { OidcUsers } from './oidc-users';

/** Verified tokens remembered at most (least recently used first out), and users' actors. */
const KEPT_TOKENS = 5000;
/** A bearer token longer than this is refused before anything else (identity providers' stay far below). */
const MAX_TOKEN_LENGTH = 16 * 1024;
/** A compact JWS: three base64url parts. The service's own tokens are base64url without dots. */
const JWT_SHAPE = /^[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/;

/** A token once verified and its user brought in line with its claims: kept until it expires. */
interface Admission {
  userId: number;
  clientId: string | undefined;
  /** Epoch milliseconds: `exp` plus the leeway. */
  expiresAt: number;
}

/**
 * Bearer JWTs of DAM_OIDC_ISSUER (DESIGN §12), beside the service's own opaque tokens. A token is verified
 * and its claims applied to its user once per instance; later requests find it by its hash, so a request
 * with a known token costs a hash and two map lookups. The actor follows the 'access' generation like
 * the opaque tokens' (an admin's change shows on every instance within a second).
 */
@Injectable()
export class OidcAuthenticator {
  private readonly logger = new Logger('Oidc');
  private readonly settings: OidcSettings | undefined;
  private readonly verifier: OidcTokenVerifier | undefined;
  private readonly admitted = new Map<string, Admission>();
  private readonly admitting = new Map<string, Promise<Admission>>();
  private readonly actors: GenerationLru<number, ActorUser | null>;

  constructor(
    config: AppConfig,
    generations: CacheGenerations,
    private readonly users: UsersService,
    private readonly oidcUsers: OidcUsers,
  ) {
    this.settings = config.oidc;
    this.verifier =
      config.oidc === undefined ? undefined : new OidcTokenVerifier(config.oidc, new OidcKeys(config.oidc));
    this.actors = new GenerationLru(generations, [ACCESS_GENERATION], {
      capacity: KEPT_TOKENS,
      keep: (actor) => actor !== null,
    });
  }

  /** Whether a bearer token is this authenticator's: single sign-on is on and the token is a JWT. */
  handles(token: string): boolean {
    return this.verifier !== undefined && JWT_SHAPE.test(token);
  }

  async authenticate(token: string): Promise<Principal> {
    if (token.length > MAX_TOKEN_LENGTH) throw this.refused('the token is too long');
    const key = hashToken(token);
    let admission = this.keptAdmission(key) ?? (await this.admit(key, token));
    let actor = await this.actors.get(admission.userId, (id) => this.users.findActor(id));
    if (actor === null) {
      // Deleted since the token was admitted: the token names them again (created anew when allowed).
      this.admitted.delete(key);
      admission = await this.admit(key, token);
      actor = await this.actors.get(admission.userId, (id) => this.users.findActor(id));
      if (actor === null) throw this.refused("the token's user does not exist");
    }
    return { user: actor, via: 'oidc', clientId: admission.clientId };
  }

  private keptAdmission(key: string): Admission | undefined {
    const admission = this.admitted.get(key);
    if (admission === undefined) return undefined;
    if (admission.expiresAt <= Date.now()) {
      this.admitted.delete(key);
      return undefined;
    }
    // Least recently used first out: a hit moves to the end.
    this.admitted.delete(key);
    this.admitted.set(key, admission);
    return admission;
  }

  /** Verifies the token and applies its claims, once for concurrent requests with the same token. */
  private admit(key: string, token: string): Promise<Admission> {
    let admitting = this.admitting.get(key);
    if (admitting === undefined) {
      admitting = this.verifyAndApply(token).finally(() => this.admitting.delete(key));
      this.admitting.set(key, admitting);
    }
    return admitting.then((admission) => {
      this.keep(key, admission);
      return admission;
    });
  }

  private async verifyAndApply(token: string): Promise<Admission> {
    const settings = this.settings as OidcSettings;
    try {
      const payload = await (this.verifier as OidcTokenVerifier).verify(token);
      const user = await this.oidcUsers.sync(identityOf(payload, settings), settings);
      const clientId = [payload.client_id, payload.azp].find((value) => typeof value === 'string');
      return {
        userId: user.id,
        clientId: clientId as string | undefined,
        expiresAt: ((payload.exp as number) + CLOCK_LEEWAY_SECONDS) * 1000,
      };
    } catch (error) {
      if (error instanceof JwtRefused || error instanceof UnusableClaim) throw this.refused(error.message);
      throw error;
    }
  }

  private keep(key: string, admission: Admission): void {
    this.admitted.delete(key);
    this.admitted.set(key, admission);
    while (this.admitted.size > KEPT_TOKENS) {
      const oldest = this.admitted.keys().next();
      if (oldest.done === true) break;
      this.admitted.delete(oldest.value);
    }
  }

  /** 401 with the reason; the error filter adds `WWW-Authenticate: Bearer error="invalid_token"`. */
  private refused(reason: string): NotAuthenticated {
    this.logger.log(`an OIDC bearer token was refused: ${reason}`);
    return new NotAuthenticated(reason);
  }
}
