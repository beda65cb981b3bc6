import { NotAuthenticated } from '@dam/errors';
import { parsePositiveId } from '@dam/http';
import { UrlSigner } from '@dam/storage';
import type { Request } from 'express';
import { UsersService } from '../users/users.service';
import { ActorUser, Principal } from '../actor/actor';

/** The query parameter naming the user a signed URL acts as (set by POST /rest/sign-url, signed with the rest). */
export const SIGNER_PARAMETER = 'signer';
/**
 * The signer's credential generation the URL was signed under (absent in URLs signed before issue 36:
 * generation 0). Once the signer's sessions end, the generation moves and the URL stops working.
 */
export const SIGNER_GENERATION_PARAMETER = 'signerGeneration';

/**
 * Authenticates GET/HEAD requests carrying a URL signature (`timestamp` and `key`) instead of a token:
 * the whole path and query as received must verify, and the request then acts as the signing user.
 */
export class SignedUrlAuthenticator {
  constructor(
    private readonly signer: UrlSigner,
    private readonly users: UsersService,
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
    const user =
      check === 'valid'
        ? await this.signingUser(request.query[SIGNER_PARAMETER], request.query[SIGNER_GENERATION_PARAMETER])
        : null;
    if (user === null) throw new NotAuthenticated('the signed URL is invalid');
    return { user, via: 'signed-url' };
  }

  /**
   * A signer that is not a user id (absent, malformed, repeated), or a generation that is malformed or no
   * longer the signer's, makes the signature invalid, not a 400.
   */
  private async signingUser(raw: unknown, rawGeneration: unknown): Promise<ActorUser | null> {
    let id: number;
    try {
      id = parsePositiveId(raw, SIGNER_PARAMETER);
    } catch {
      return null;
    }
    const generation = rawGeneration === undefined ? '0' : rawGeneration;
    if (typeof generation !== 'string' || !/^\d{1,9}$/.test(generation)) return null;
    return this.users.findSigner(id, Number(generation));
  }
}
