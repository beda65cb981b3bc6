import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { RequestContext } from '../context/request-context';
import { InvalidInput } from './domain-errors';

export type UrlSegment = string | number;

/**
 * Builds every absolute URL the service hands out, and reads the URLs clients send back.
 * The origin is DAM_PUBLIC_URL when set, else the one the current request came in on.
 */
@Injectable()
export class UrlService {
  constructor(private readonly config: AppConfig) {}

  origin(): string {
    return (
      this.config.publicUrl ?? RequestContext.current()?.origin ?? `http://localhost:${this.config.port}`
    );
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
   * Reads a URL sent by a client and matches its path below the REST root against `template`
   * (e.g. `access-levels/:id`). Returns the named parameters, or undefined when it names something else.
   * The host is not compared: clients behind proxies legitimately see other origins.
   */
  matchRest(url: unknown, template: string): Record<string, string> | undefined {
    if (typeof url !== 'string' || url.length > 2048) return undefined;
    let parsed: URL;
    try {
      parsed = new URL(url, this.origin());
    } catch {
      return undefined;
    }
    const segments = parsed.pathname.split('/').filter((segment) => segment !== '');
    const restIndex = segments.lastIndexOf('rest');
    if (restIndex < 0) return undefined;
    const actual = segments.slice(restIndex + 1);
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
   * The numeric id in a resource URL such as `.../rest/access-levels/12`, or a 400 naming what was expected.
   */
  parseIdOrThrow(url: unknown, collection: string, what: string): number {
    const params = this.matchRest(url, `${collection}/:id`);
    const id = params === undefined ? NaN : Number(params.id);
    if (!Number.isSafeInteger(id) || id <= 0) {
      throw new InvalidInput(`${describe(url)} is not ${what} URL`);
    }
    return id;
  }
}

function describe(value: unknown): string {
  if (typeof value !== 'string') return `the value ${JSON.stringify(value) ?? String(value)}`;
  const shown = value.length > 200 ? `${value.slice(0, 200)}...` : value;
  return `"${shown}"`;
}
