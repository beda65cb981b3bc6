import { Injectable } from '@nestjs/common';
import { AppConfig } from '@dam/core';
import { RequestContext } from '@dam/core';
import { InvalidInput } from '@dam/errors';
import { configuredOrigin } from './trusted-origin';

export type UrlSegment = string | number;

/**
 * Builds every absolute URL the service hands out, and reads the URLs clients send back.
 * The origin is DAM_PUBLIC_URL when set, else the one the current request came in on (a host
 * TrustedOrigin allowed), else the configured one. What outlives the request's answer uses `configured()`.
 */
@Injectable()
export class UrlService {
  private background: UrlService | undefined;

  constructor(protected readonly config: AppConfig) {}

  origin(): string {
    return this.config.publicUrl ?? RequestContext.current()?.origin ?? configuredOrigin(this.config);
  }

  /**
   * The same URLs with the configured origin (DAM_PUBLIC_URL, else TrustedOrigin's), never the request's
   * host: for what is read outside the request's answer (event payloads and webhooks, job results).
   */
  configured(): UrlService {
    this.background ??= new ConfiguredUrls(this.config);
    return this.background;
  }

  /** `{origin}/rest/a/b` with each segment percent-encoded. */
  rest(...segments: UrlSegment[]): string {
    return this.absolute('rest', ...segments);
  }

  /** `{origin}/a/b` with each segment percent-encoded. */
  absolute(...segments: UrlSegment[]): string {
    const path = segments.map((segment) => encodeURIComponent(String(segment))).join('/');
    return `${this.origin()}/${path}`;
  }

  /** Appends query parameters to a URL built by this service. */
  withQuery(url: string, query: Record<string, string | number | boolean | undefined>): string {
    const parsed = new URL(url);
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined) parsed.searchParams.set(key, String(value));
    }
    return parsed.toString();
  }

  /**
   * Resolves a URL a client sent in `field` (absolute, or a path resolved against our origin) and checks
   * that it is ours: the public origin and, when DAM_PUBLIC_URL has one, its path prefix. Another origin or
   * prefix is a 400 naming the field. Undefined when it is no string (or too long) to read as a URL.
   */
  resolveOwnOrThrow(url: unknown, field: string): URL | undefined {
    if (typeof url !== 'string' || url.length > MAX_URL_LENGTH) return undefined;
    const base = new URL(this.origin());
    let parsed: URL;
    try {
      // Relative text ("12", "rest/assets/1") resolves below the prefix; "/x" and "//host/x" do not.
      parsed = new URL(url, `${base.origin}${base.pathname.replace(/\/*$/, '/')}`);
    } catch {
      return undefined;
    }
    const prefix = base.pathname.replace(/\/+$/, '');
    const own =
      (parsed.protocol === 'http:' || parsed.protocol === 'https:') &&
      parsed.origin === base.origin &&
      parsed.username === '' &&
      parsed.password === '' &&
      (prefix === '' || parsed.pathname === prefix || parsed.pathname.startsWith(`${prefix}/`));
    if (!own) throw new NotOwnUrl(field, url);
    return parsed;
  }

  /**
   * Reads a URL sent by a client in `field` and matches its path below the REST root against `template`
   * (e.g. `access-levels/:id`). Returns the named parameters, or undefined when it names something else.
   * A URL of another origin or path prefix is a 400 naming the field (see resolveOwnOrThrow).
   */
  matchRest(url: unknown, template: string, field: string): Record<string, string> | undefined {
    const parsed = this.resolveOwnOrThrow(url, field);
    if (parsed === undefined) return undefined;
    const root = new URL(this.rest()).pathname;
    if (!parsed.pathname.startsWith(`${root}/`)) return undefined;
    const actual = parsed.pathname
      .slice(root.length + 1)
      .split('/')
      .filter((segment) => segment !== '');
    const expected = template.split('/').filter((segment) => segment !== '');
    if (actual.length !== expected.length) return undefined;
    const params: Record<string, string> = {};
    for (let i = 0; i < expected.length; i++) {
      let value: string;
      try {
        value = decodeURIComponent(actual[i]);
      } catch {
        return undefined;
      }
      if (expected[i].startsWith(':')) params[expected[i].slice(1)] = value;
      else if (expected[i] !== value) return undefined;
    }
    return params;
  }

  /**
   * The numeric id in a resource URL such as `.../rest/access-levels/12` sent in `field`, or a 400: naming
   * the field when the URL is not this service's, else naming what was expected.
   */
  parseIdOrThrow(url: unknown, collection: string, what: string, field: string): number {
    const params = this.matchRest(url, `${collection}/:id`, field);
    const id = params === undefined ? NaN : Number(params.id);
    if (!Number.isSafeInteger(id) || id <= 0) {
      throw new InvalidInput(`${describe(url)} is not ${what} URL`);
    }
    return id;
  }
}

/** UrlService.configured(): every URL with the configured origin, whatever request is running. */
class ConfiguredUrls extends UrlService {
  override origin(): string {
    return configuredOrigin(this.config);
  }

  override configured(): UrlService {
    return this;
  }
}

const MAX_URL_LENGTH = 2048;

/** A URL sent in a request that is not one of this service's (another origin or path prefix): 400. */
export class NotOwnUrl extends InvalidInput {
  constructor(field: string, url: string) {
    super(`${field}: ${url.length > 200 ? `${url.slice(0, 200)}...` : url} is not a URL of this service`);
  }
}

function describe(value: unknown): string {
  if (typeof value !== 'string') return `the value ${JSON.stringify(value) ?? String(value)}`;
  const shown = value.length > 200 ? `${value.slice(0, 200)}...` : value;
  return `"${shown}"`;
}
