import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppConfig, RequestContext } from '@dam/core';
import { NotAuthenticated } from '@dam/errors';
import { IS_PUBLIC } from '@dam/http';
import { UrlSigner } from '@dam/storage';
import type { Request } from 'express';
import { BlockList, isIPv4 } from 'node:net';
import { TokensService } from '../oauth/tokens.service';
import { OidcAuthenticator } from '../oidc/oidc.authenticator';
import { UsersService } from '../users/users.service';
import { AuthenticatedRequest, Principal } from '../actor/actor';
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

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    if (this.isPublic(context)) return true;
    const request = context.switchToHttp().getRequest<Request & AuthenticatedRequest>();
    const principal = await this.authenticate(request);
    request.principal = principal;
    const requested = request.query.userId;
    // Without ?userId= the actor is the caller (what resolve answers), without another await.
    request.actor =
      requested === undefined ? principal.user : await this.actors.resolve(principal.user, requested);
    RequestContext.identify({ actorId: request.actor.id, clientId: principal.clientId });
    return true;
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

  private async authenticate(request: Request): Promise<Principal> {
    const header = request.headers.authorization;
    if (header !== undefined) {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
      if (match !== null && this.oidc.handles(match[1])) return this.oidc.authenticate(match[1]);
      const bearer = match === null ? undefined : await this.tokens.bearerOf(match[1]);
      if (bearer === undefined)
        throw new NotAuthenticated('the access token is missing, invalid, expired or revoked');
      return { user: bearer.actor, via: 'token', clientId: bearer.clientId };
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
