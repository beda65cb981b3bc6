import { Injectable } from '@nestjs/common';
import { RequestContext } from '@dam/core';
import { DomainEvents } from '@dam/events';
import { UrlService } from '@dam/http';
import { PasswordHasher } from '../users/password-hasher';
import { UsersRepository } from '../users/users.repository';
import { OAuthClientEntity } from './entities/oauth-client.entity';
import { LoginFailed } from './login-failed';
import { LoginThrottle } from './login-throttle';
import { OAuthClientsService } from './oauth-clients.service';
import { OAuthError } from './oauth-error';
import { TokenResponse, TokensService } from './tokens.service';

/** Fields of a token or revocation request, from a form-encoded or JSON body. */
export type OAuthParameters = Record<string, unknown>;

/** The token endpoint's grants (RFC 6749) and revocation (RFC 7009). */
@Injectable()
export class OAuthService {
  constructor(
    private readonly clients: OAuthClientsService,
    private readonly tokens: TokensService,
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    private readonly logins: LoginThrottle,
    private readonly events: DomainEvents,
    private readonly urls: UrlService,
  ) {}

  /** `address`: the client's address (DAM_TRUST_PROXY applied), whose failed password grants are limited. */
  async token(
    parameters: OAuthParameters,
    authorization: string | undefined,
    address?: string,
  ): Promise<TokenResponse> {
    const client = await this.authenticateClient(parameters, authorization, address);
    RequestContext.identify({ clientId: client.clientId });
    const grantType = text(parameters.grant_type);
    switch (grantType) {
      case 'client_credentials':
        RequestContext.identify({ actorId: client.userId });
        return this.tokens.issue(client, client.userId, { withRefreshToken: false });
      case 'password':
        return this.passwordGrant(client, parameters, address);
      case 'refresh_token': {
        const refreshToken = text(parameters.refresh_token);
        if (refreshToken === undefined)
          throw new OAuthError(400, 'invalid_request', 'refresh_token is required');
        return this.tokens.refresh(client, refreshToken);
      }
      case undefined:
        throw new OAuthError(400, 'invalid_request', 'grant_type is required');
      default:
        throw new OAuthError(
          400,
          'unsupported_grant_type',
          `grant type ${grantType.slice(0, 50)} is not supported`,
        );
    }
  }

  async revoke(
    parameters: OAuthParameters,
    authorization: string | undefined,
    address?: string,
  ): Promise<void> {
    const client = await this.authenticateClient(parameters, authorization, address);
    const token = text(parameters.token);
    if (token === undefined) throw new OAuthError(400, 'invalid_request', 'token is required');
    await this.tokens.revoke(client, token);
  }

  private async passwordGrant(
    client: OAuthClientEntity,
    parameters: OAuthParameters,
    address: string | undefined,
  ): Promise<TokenResponse> {
    const username = text(parameters.username);
    const password = text(parameters.password);
    if (username === undefined || password === undefined) {
      throw new OAuthError(400, 'invalid_request', 'username and password are required');
    }
    // Counted under the username as stored (MariaDB finds `Bob` for `bob`), else exactly as given.
    const user = await this.users.findByUsername(username);
    const valid = await this.logins.check(
      { kind: 'user', name: user?.username ?? username },
      address,
      async () =>
        (await this.hasher.verify(password, user?.passwordHash ?? this.hasher.dummyHash)) &&
        user !== null &&
        user.passwordHash !== null,
    );
    if (!valid || user === null) {
      await this.events.recordUnpublished(LoginFailed.of(this.urls, 'username', username, user?.id ?? null));
      throw new OAuthError(400, 'invalid_grant', 'the username or password is wrong');
    }
    RequestContext.identify({ actorId: user.id });
    return this.tokens.issue(client, user.id, { withRefreshToken: true });
  }

  /**
   * Client credentials from HTTP Basic (preferred by RFC 6749 2.3.1) or from the body; failures are
   * throttled like failed passwords, per client id and address.
   */
  private async authenticateClient(
    parameters: OAuthParameters,
    authorization: string | undefined,
    address: string | undefined,
  ): Promise<OAuthClientEntity> {
    const basic = parseBasic(authorization);
    const clientId = basic?.clientId ?? text(parameters.client_id);
    const clientSecret = basic?.clientSecret ?? text(parameters.client_secret);
    if (clientId === undefined || clientSecret === undefined) {
      throw new OAuthError(401, 'invalid_client', 'client authentication is required');
    }
    const known = await this.clients.findByClientId(clientId);
    let client: OAuthClientEntity | undefined;
    await this.logins.check({ kind: 'client', name: known?.clientId ?? clientId }, address, async () => {
      client = await this.clients.verify(known, clientSecret);
      return client !== undefined;
    });
    if (client === undefined) {
      await this.events.recordUnpublished(
        LoginFailed.of(this.urls, 'clientId', clientId, known?.userId ?? null),
      );
      throw new OAuthError(401, 'invalid_client', 'client authentication failed');
    }
    return client;
  }
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' && value.length <= 1024 ? value : undefined;
}

function parseBasic(header: string | undefined): { clientId: string; clientSecret: string } | undefined {
  const match = header === undefined ? null : /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (match === null) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  try {
    // RFC 6749 2.3.1: both parts are form-urlencoded before being joined.
    return {
      clientId: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
      clientSecret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
    };
  } catch {
    return undefined;
  }
}
