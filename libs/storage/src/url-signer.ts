import { Injectable, OnModuleInit } from '@nestjs/common';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppConfig } from '@dam/core';
import { Settings } from '@dam/database';

export type SignatureCheck = 'valid' | 'expired' | 'invalid';

const SECRET_SETTING = 'url_signing_secret';
/** Any base URL: only path and query are signed, so the host a client or proxy sees never matters. */
const ANY_ORIGIN = 'http://signed.invalid';
const TIMESTAMP = /^\d{1,12}$/;
/** The `timestamp` of a URL that never expires (DAM_SIGNED_URL_ALLOW_NEVER). */
export const NEVER_EXPIRES = 0;

/**
 * Signs URLs so they work without a token until they expire: appends `timestamp` (expiry, epoch seconds)
 * and `key` (HMAC-SHA256, base64url) over the method, the path below the service root and every other
 * query parameter, sorted. Changing any of them (path, file name, expiry) breaks the signature.
 *
 * The secret is DAM_URL_SIGNING_SECRET, else one generated once and kept in the `settings` table, so
 * every instance sharing the database signs alike.
 */
@Injectable()
export class UrlSigner implements OnModuleInit {
  private secret: Buffer | undefined;

  constructor(
    private readonly config: AppConfig,
    private readonly settings: Settings,
  ) {}

  async onModuleInit(): Promise<void> {
    // Another instance booting at the same time may create it first: every instance then uses that one.
    const secret =
      this.config.urlSigningSecret ??
      (await this.settings.getOrCreate(SECRET_SETTING, () => randomBytes(32).toString('base64url')));
    this.secret = Buffer.from(secret, 'utf8');
  }

  /** The URL (absolute, or a path with query) with `timestamp` and `key` set. */
  sign(url: string, expiresAtEpochSeconds: number, method = 'GET'): string {
    if (!Number.isSafeInteger(expiresAtEpochSeconds) || expiresAtEpochSeconds < 0) {
      throw new RangeError(`invalid expiry: ${expiresAtEpochSeconds}`);
    }
    const parsed = new URL(url, ANY_ORIGIN);
    parsed.searchParams.delete('key');
    parsed.searchParams.set('timestamp', String(expiresAtEpochSeconds));
    parsed.searchParams.set('key', this.mac(method, parsed));
    return parsed.origin === ANY_ORIGIN ? `${parsed.pathname}${parsed.search}` : parsed.toString();
  }

  /** Checks a URL as received (absolute, or the request's path with query, e.g. `req.originalUrl`). */
  verify(url: string, method = 'GET', nowMs = Date.now()): SignatureCheck {
    let parsed: URL;
    try {
      parsed = new URL(url, ANY_ORIGIN);
    } catch {
      return 'invalid';
    }
    const given = parsed.searchParams.getAll('key');
    const timestamps = parsed.searchParams.getAll('timestamp');
    if (given.length !== 1 || timestamps.length !== 1 || !TIMESTAMP.test(timestamps[0])) return 'invalid';
    // Compared as text, not decoded: base64 decoding ignores stray characters, so variants would pass.
    const expected = Buffer.from(this.macOrUndefined(method, parsed) ?? '', 'utf8');
    const actual = Buffer.from(given[0], 'utf8');
    if (expected.length === 0 || actual.length !== expected.length || !timingSafeEqual(actual, expected)) {
      return 'invalid';
    }
    const expiresAt = Number(timestamps[0]);
    // Timestamp 0 never expires, but only while DAM_SIGNED_URL_ALLOW_NEVER is on (else it is long past).
    if (expiresAt === NEVER_EXPIRES) return this.config.signedUrlAllowNever ? 'valid' : 'expired';
    return expiresAt * 1000 <= nowMs ? 'expired' : 'valid';
  }

  private macOrUndefined(method: string, url: URL): string | undefined {
    try {
      return this.mac(method, url);
    } catch {
      return undefined;
    }
  }

  private mac(method: string, url: URL): string {
    if (this.secret === undefined) throw new Error('UrlSigner used before onModuleInit');
    const query = [...url.searchParams]
      .filter(([name]) => name !== 'key')
      .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
      .sort()
      .join('&');
    const canonical = `${method.toUpperCase()}\n${this.servicePath(url.pathname)}\n${query}`;
    return createHmac('sha256', this.secret).update(canonical).digest('base64url');
  }

  /**
   * The path as the service routes it: without the DAM_PUBLIC_URL base path (a proxy strips it), with
   * each segment in one canonical percent-encoding. Throws on malformed encoding.
   */
  private servicePath(pathname: string): string {
    const base =
      this.config.publicUrl === undefined ? '' : new URL(this.config.publicUrl).pathname.replace(/\/+$/, '');
    const path = base !== '' && pathname.startsWith(`${base}/`) ? pathname.slice(base.length) : pathname;
    return path
      .split('/')
      .map((segment) => encodeURIComponent(decodeURIComponent(segment)))
      .join('/');
  }
}
