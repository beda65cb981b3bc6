import { Injectable } from '@nestjs/common';
import { ActorUser, SIGNER_PARAMETER } from '@dam/access';
import { InvalidInput, UrlService, UrlSigner } from '@dam/platform';

const SIGNATURE_PARAMETERS = ['timestamp', 'key', SIGNER_PARAMETER];

/** Only URLs of this service's own REST API may be signed. */
export class NotOwnRestUrl extends InvalidInput {
  constructor(url: string, root: string) {
    super(`"${url.slice(0, 200)}" is not a URL of this service's REST API (${root})`);
  }
}

/**
 * Signs URLs of this service's REST API for GET without a token. The signature covers the path, every
 * query parameter and the expiry, and names the signing actor, so the URL can do exactly what the actor
 * could do with it, no more, until it expires.
 */
@Injectable()
export class SignUrlService {
  constructor(
    private readonly urls: UrlService,
    private readonly signer: UrlSigner,
  ) {}

  sign(actor: ActorUser, url: string, expirySeconds: number, now = Date.now()): string {
    const target = this.ownRestUrlOrThrow(url);
    for (const name of SIGNATURE_PARAMETERS) target.searchParams.delete(name);
    target.searchParams.set(SIGNER_PARAMETER, String(actor.id));
    return this.signer.sign(target.toString(), Math.floor(now / 1000) + expirySeconds);
  }

  /** The URL when it is an http(s) URL below this service's REST root (same origin), else a 400. */
  private ownRestUrlOrThrow(url: string): URL {
    const root = new URL(this.urls.rest());
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    const below =
      parsed !== undefined &&
      parsed.origin === root.origin &&
      parsed.username === '' &&
      parsed.password === '' &&
      (parsed.pathname === root.pathname || parsed.pathname.startsWith(`${root.pathname}/`));
    if (parsed === undefined || !below) {
      throw new NotOwnRestUrl(url, root.toString());
    }
    parsed.hash = '';
    return parsed;
  }
}
