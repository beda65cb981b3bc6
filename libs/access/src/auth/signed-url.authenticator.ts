import { parseOptionalId, NotAuthenticated, UrlSigner } from '@dam/platform';
import type { Request } from 'express';
import { UsersRepository } from '../users/users.repository';
import { Principal } from './actor';
import { toActor } from './actor.service';

/** The query parameter naming the user a signed URL acts as (set by POST /rest/sign-url, signed with the rest). */
export const SIGNER_PARAMETER = 'signer';

/**
 * Authenticates GET/HEAD requests carrying a URL signature (`timestamp` and `key`) instead of a token:
 * the whole path and query as received must verify, and the request then acts as the signing user.
 */
export class SignedUrlAuthenticator {
  constructor(
    private readonly signer: UrlSigner,
    private readonly users: UsersRepository,
  ) {}

  /** Whether the request presents a signature (only reads may be signed). */
  presentsSignature(request: Request): boolean {
    const { key, timestamp } = request.query;
    return (
      (request.method === 'GET' || request.method === 'HEAD') && key !== undefined && timestamp !== undefined
    );
  }

  async authenticate(request: Request): Promise<Principal> {
    // HEAD is the GET of the same URL; `originalUrl` is the path and query exactly as the client sent them.
    const check = this.signer.verify(request.originalUrl, 'GET');
    if (check === 'expired') throw new NotAuthenticated('the signed URL has expired');
    const user = check === 'valid' ? await this.signingUser(request.query[SIGNER_PARAMETER]) : null;
    if (user === null) throw new NotAuthenticated('the signed URL is invalid');
    return { user: toActor(user), via: 'signed-url' };
  }

  private async signingUser(raw: unknown) {
    let id: number | undefined;
    try {
      id = parseOptionalId(raw, SIGNER_PARAMETER);
    } catch {
      return null;
    }
    return id === undefined || id <= 0 ? null : this.users.findById(id);
  }
}
