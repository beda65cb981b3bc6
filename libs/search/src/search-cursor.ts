import { Injectable } from '@nestjs/common';
import { AssetPosition } from '@dam/assets';
import { InvalidInput } from '@dam/errors';
import { QueryParams } from '@dam/http';
import { UrlSigner } from '@dam/storage';

/** Parameters that choose the page and the shape of the answer, not the search a cursor belongs to. */
const PAGE_PARAMETERS = new Set(['page', 'pageSize', 'cursor', 'count', 'facets', 'facetLimit']);

/** Signed like a URL that never expires here (2100-01-01); the method keeps it apart from real URLs. */
const SIGNED_UNTIL = 4_102_444_800;
const METHOD = 'CURSOR';
const PATH = '/rest/asset-search';
const ORIGIN = 'http://cursor.invalid';
const MAX_CURSOR_LENGTH = 2000;

/**
 * The opaque `cursor` of `GET /rest/asset-search`: where the next page starts (the sort key and id of the
 * last row, AssetPosition), bound to the search it came from (every parameter but the page ones, so a
 * cursor of one search cannot be replayed on another or with another order) and signed with the URL
 * signing secret (UrlSigner: HMAC-SHA256). `<payload>.<signature>`, both base64url. Anything else is 400.
 */
@Injectable()
export class SearchCursors {
  constructor(private readonly signer: UrlSigner) {}

  encode(position: AssetPosition, params: QueryParams): string {
    const payload = Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
    const signed = new URL(this.signer.sign(this.url(payload, params), SIGNED_UNTIL, METHOD), ORIGIN);
    return `${payload}.${signed.searchParams.get('key') ?? ''}`;
  }

  /** The position a cursor names, or 400 when it was not made by this service for this very search. */
  decode(cursor: string, params: QueryParams): AssetPosition {
    const invalid = new InvalidInput('cursor is not a cursor of this search: follow the Link rel="next" URL');
    const match = /^([A-Za-z0-9_-]{1,1000})\.([A-Za-z0-9_-]{43})$/.exec(cursor);
    if (cursor.length > MAX_CURSOR_LENGTH || match === null) throw invalid;
    const [, payload, signature] = match;
    const url = new URL(this.url(payload, params), ORIGIN);
    url.searchParams.set('timestamp', String(SIGNED_UNTIL));
    url.searchParams.set('key', signature);
    if (this.signer.verify(`${url.pathname}${url.search}`, METHOD) !== 'valid') throw invalid;
    let position: unknown;
    try {
      position = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      throw invalid;
    }
    if (!isPosition(position)) throw invalid;
    return position;
  }

  private url(payload: string, params: QueryParams): string {
    const search = params.toQueryString((name) => !PAGE_PARAMETERS.has(name));
    const query = new URLSearchParams({ p: payload, q: search });
    return `${PATH}?${query.toString()}`;
  }
}

function isPosition(value: unknown): value is AssetPosition {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { id, key } = value as Record<string, unknown>;
  const keyOk =
    key === undefined ||
    key === null ||
    (typeof key === 'number' && Number.isFinite(key)) ||
    (typeof key === 'string' && key.length <= 1000);
  return typeof id === 'number' && Number.isSafeInteger(id) && id >= 0 && keyOk;
}
