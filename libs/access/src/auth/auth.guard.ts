import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppConfig, RequestContext } from '@dam/core';
import { NotAuthenticated } from '@dam/errors';
import { IS_PUBLIC } from '@dam/http';
import { UrlSigner } from '@dam/storage';
import type { Request } from 'express';
import { BlockList, isIPv4 } from 'node:net';
import { TokenBearer, TokensService } from '../oauth/tokens.service';
import { OidcAuthenticator } from '../oidc/oidc.authenticator';
import { UsersService } from '../users/users.service';
import { ActorUser, AuthenticatedRequest, Principal } from '../actor/actor';
import { ActorService } from './actor.service';
import { SignedUrlAuthenticator } from './signed-url.authenticator';

/**
 * Deny by default: every route needs a valid bearer token (the service's own, or a JWT of
 * DAM_OIDC_ISSUER: OidcAuthenticator), or a request from DAM_TRUSTED_NETWORKS (which acts as the
 * application user), or a signed URL (GET/HEAD without a token, acting as its signer), unless marked
 * @Public(). Then `?userId=` is resolved to the actor under the impersonation rules.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  private readonly trusted: BlockList;
  private readonly signedUrls: SignedUrlAuthenticator;
  /** Per controller class, per handler: whether it is @Public(). */
  private readonly publicHandlers = new WeakMap<object, WeakMap<object, boolean>>();

  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: TokensService,
    private readonly users: UsersService,
    private readonly actors: ActorService,
    private readonly oidc: OidcAuthenticator,
    config: AppConfig,
    signer: UrlSigner,
  ) {
    this.signedUrls = new SignedUrlAuthenticator(signer, users);
    this.trusted = new BlockList();
    for (const cidr of config.trustedNetworks) {
      const [address, bits] = cidr.split('/');
      const type = isIPv4(address) ? 'ipv4' : 'ipv6';
      const prefix = bits === undefined ? (type === 'ipv4' ? 32 : 128) : Number(bits);
      this.trusted.addSubnet(address, prefix, type);
    }
  }

  /**
   * A plain `true` when the bearer token is held in memory and there is no `?userId=` (the hot path of
   * every read: Nest's guards consumer awaits anything but a boolean); else a promise.
   */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (context.getType() !== 'http') return true;
    if (this.isPublic(context)) return true;
    const request = context.switchToHttp().getRequest<Request & AuthenticatedRequest>();
    const held = this.heldPrincipal(request);
    if (held !== undefined && request.query.userId === undefined) {
      // Without ?userId= the actor is the caller (what resolve answers).
      this.admit(request, held, held.user);
      return true;
    }
    return this.authenticateAndAdmit(request);
  }

  private async authenticateAndAdmit(request: Request & AuthenticatedRequest): Promise<boolean> {
    const principal = await this.authenticate(request);
    request.principal = principal;
    const requested = request.query.userId;
    // Without ?userId= the actor is the caller (what resolve answers), without another await.
    this.admit(
      request,
      principal,
      requested === undefined ? principal.user : await this.actors.resolve(principal.user, requested),
    );
    return true;
  }

  private admit(request: Request & AuthenticatedRequest, principal: Principal, actor: ActorUser): void {
    request.principal = principal;
    request.actor = actor;
    RequestContext.identify({ actorId: actor.id, clientId: principal.clientId });
  }

  /** @Public() on the handler or its controller, read once per handler (the metadata never changes). */
  private isPublic(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    const controller = context.getClass();
    let handlers = this.publicHandlers.get(controller);
    if (handlers === undefined) this.publicHandlers.set(controller, (handlers = new WeakMap()));
    let isPublic = handlers.get(handler);
    if (isPublic === undefined) {
      isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [handler, controller]) === true;
      handlers.set(handler, isPublic);
    }
    return isPublic;
  }

  /** The principal of a service token held in memory (TokensService.heldBearerOf), without a promise. */
  private heldPrincipal(request: Request): Principal | undefined {
    const token = bearerTokenOf(request);
    if (token === undefined || this.oidc.handles(token)) return undefined;
    const bearer = this.tokens.heldBearerOf(token);
    return bearer === undefined ? undefined : tokenPrincipal(bearer);
  }

  private async authenticate(request: Request): Promise<Principal> {
    if (request.headers.authorization !== undefined) {
      const token = bearerTokenOf(request);
      if (token !== undefined && this.oidc.handles(token)) return this.oidc.authenticate(token);
      const bearer = token === undefined ? undefined : await this.tokens.bearerOf(token);
      if (bearer === undefined)
        throw new NotAuthenticated('the access token is missing, invalid, expired or revoked');
      return tokenPrincipal(bearer);
    }
    if (this.signedUrls.presentsSignature(request)) return this.signedUrls.authenticate(request);
    if (this.isTrusted(request.socket.remoteAddress)) {
      const application = await this.users.applicationActor();
      if (application !== null) return { user: application, via: 'trusted-network' };
    }
    throw new NotAuthenticated('an access token is required (Authorization: Bearer <token>)');
  }

  private isTrusted(address: string | undefined): boolean {
    if (address === undefined) return false;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped !== null) return this.trusted.check(mapped[1], 'ipv4');
    return this.trusted.check(address, isIPv4(address) ? 'ipv4' : 'ipv6');
  }
}

/** The token of an `Authorization: Bearer <token>` header, if the request has one. */
function bearerTokenOf(request: Request): string | undefined {
  const header = request.headers.authorization;
  if (header === undefined) return undefined;
  return /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
}

function tokenPrincipal(bearer: TokenBearer): Principal {
  return { user: bearer.actor, via: 'token', clientId: bearer.clientId };
}
