import { Injectable } from '@nestjs/common';
import { ActorUser, SIGNER_PARAMETER, SIGNER_GENERATION_PARAMETER, UsersService } from '@dam/access';
import { AppConfig } from '@dam/core';
import { InvalidInput } from '@dam/errors';
import { UrlService } from '@dam/http';
import { NEVER_EXPIRES, UrlSigner } from '@dam/storage';
import { MAX_EXPIRY_SECONDS } from './dto/sign-url.request';

const SIGNATURE_PARAMETERS = ['timestamp', 'key', SIGNER_PARAMETER, SIGNER_GENERATION_PARAMETER];

/** Only URLs of this service's own REST API may be signed. */
export class NotOwnRestUrl extends InvalidInput {
  constructor(url: string, root: string) {
    super(`"${url.slice(0, 200)}" is not a URL of this service's REST API (${root})`);
  }
}

/**
 * Signs URLs of this service's REST API for GET without a token. The signature covers the path, every
 * query parameter and the expiry, and names the signing actor and their credential generation, so the URL
 * can do exactly what the actor could do with it, no more, until it expires or the actor's sessions end.
 */
@Injectable()
export class SignUrlService {
  constructor(
    private readonly urls: UrlService,
    private readonly signer: UrlSigner,
    private readonly config: AppConfig,
    private readonly users: UsersService,
  ) {}

  /**
   * `expirySeconds` 0 (Asset Bank: never expires) signs with timestamp 0 when DAM_SIGNED_URL_ALLOW_NEVER
   * is on (revoked only by rotating the signing secret); otherwise it means the longest lifetime.
   */
  async sign(actor: ActorUser, url: string, expirySeconds: number, now = Date.now()): Promise<string> {
    const target = this.ownRestUrlOrThrow(url);
    for (const name of SIGNATURE_PARAMETERS) target.searchParams.delete(name);
    target.searchParams.set(SIGNER_PARAMETER, String(actor.id));
    const generation = await this.users.credentialGeneration(actor.id);
    target.searchParams.set(SIGNER_GENERATION_PARAMETER, String(generation));
    return this.signer.sign(target.toString(), this.expiryOf(expirySeconds, now));
  }

  private expiryOf(expirySeconds: number, now: number): number {
    if (expirySeconds === 0 && this.config.signedUrlAllowNever) return NEVER_EXPIRES;
    return Math.floor(now / 1000) + (expirySeconds === 0 ? MAX_EXPIRY_SECONDS : expirySeconds);
  }

  /**
   * The URL when it is absolute and below this service's REST root, else a 400 (another origin or path
   * prefix: UrlService's, naming the field).
   */
  private ownRestUrlOrThrow(url: string): URL {
    const root = new URL(this.urls.rest());
    if (!URL.canParse(url)) throw new NotOwnRestUrl(url, root.toString());
    const parsed = this.urls.resolveOwnOrThrow(url, 'url');
    const below =
      parsed !== undefined &&
      (parsed.pathname === root.pathname || parsed.pathname.startsWith(`${root.pathname}/`));
    if (parsed === undefined || !below) {
      throw new NotOwnRestUrl(url, root.toString());
    }
    parsed.hash = '';
    return parsed;
  }
}
