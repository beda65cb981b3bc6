import { Injectable } from '@nestjs/common';
import { AppConfig } from '@dam/core';
import { InvalidInput } from '@dam/errors';
import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { refusedRangeOf } from './address-ranges';

/** Why `host` may not be called, `address` (what it resolved to, or itself) being in `range`. */
function refusalText(host: string, address: string, range: string): string {
  const subject = host === address ? `${host} is` : `${host} resolves to ${address},`;
  return `${subject} an address webhooks may not target: ${range} (list the host in DAM_WEBHOOK_ALLOWED_HOSTS to allow it)`;
}

/** The first of `addresses` a webhook may not reach, with its range. */
function firstRefused(addresses: LookupAddress[]): { address: string; range: string } | undefined {
  for (const { address } of addresses) {
    const range = refusedRangeOf(address);
    if (range !== undefined) return { address, range };
  }
  return undefined;
}

/** The error code of a connection the guard refused (WebhookSender reports it as "refused"). */
export const REFUSED_TARGET = 'EWEBHOOKTARGET';

/** A URL's host without IPv6 brackets, lower-cased. */
export function hostOf(url: URL): string {
  return url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * The SSRF guard of webhook targets: at registration (`checkOrThrow`) and again at each delivery, after
 * DNS resolution (`lookupFor`, given to the HTTP request so the address checked is the address
 * connected to: a name that resolves to a private address later is refused then). Hosts listed in
 * DAM_WEBHOOK_ALLOWED_HOSTS skip the address check.
 */
@Injectable()
export class WebhookTargets {
  private readonly allowed: ReadonlySet<string>;

  constructor(config: AppConfig) {
    this.allowed = new Set(config.webhookAllowedHosts);
  }

  isAllowListed(url: URL): boolean {
    return this.allowed.has(hostOf(url));
  }

  /** Parses and checks a target sent by an admin (`field`); 400 with the reason when it may not be used. */
  async checkOrThrow(raw: unknown, field = 'url'): Promise<URL> {
    if (typeof raw !== 'string' || raw.trim() === '')
      throw new InvalidInput(`you must supply the ${field} to call`);
    if (raw.length > 2048) throw new InvalidInput(`${field} must be at most 2048 characters`);
    let url: URL;
    try {
      url = new URL(raw.trim());
    } catch {
      throw new InvalidInput(`${field} is not an absolute URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new InvalidInput(`${field} must be an http or https URL`);
    if (url.username !== '' || url.password !== '')
      throw new InvalidInput(`${field} must not carry a user name or password`);
    if (url.hash !== '') throw new InvalidInput(`${field} must not have a fragment`);
    const refusal = await this.refusalOf(url);
    if (refusal !== undefined) throw new InvalidInput(`${field}: ${refusal}`);
    return url;
  }

  /**
   * Why `url`'s host, an IP address, may not be called (undefined for a name, an allowed address, or an
   * allow-listed host). Node connects to an IP literal without a lookup, so deliveries check this first.
   */
  literalRefusal(url: URL): string | undefined {
    const host = hostOf(url);
    if (this.isAllowListed(url) || isIP(host) === 0) return undefined;
    const range = refusedRangeOf(host);
    return range === undefined ? undefined : refusalText(host, host, range);
  }

  /** Why `url` may not be registered: a blocked address, or a name that resolves to one (or to none). */
  async refusalOf(url: URL): Promise<string | undefined> {
    if (this.isAllowListed(url)) return undefined;
    const host = hostOf(url);
    if (isIP(host) !== 0) return this.literalRefusal(url);
    let addresses: LookupAddress[];
    try {
      addresses = await new Promise<LookupAddress[]>((resolve, reject) =>
        dnsLookup(host, { all: true }, (error, found) => (error ? reject(error) : resolve(found))),
      );
    } catch {
      return `the host ${host} cannot be resolved`;
    }
    const refused = firstRefused(addresses);
    return refused === undefined ? undefined : refusalText(host, refused.address, refused.range);
  }

  /**
   * The DNS lookup of one delivery to `url`: resolves as Node would, and fails the connection when an
   * address is blocked (unless the host is allow-listed).
   */
  lookupFor(url: URL) {
    const check = !this.isAllowListed(url);
    return (hostname: string, options: object, callback: LookupCallback): void => {
      dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
        if (error) return callback(error, []);
        const list = addresses as LookupAddress[];
        const refused = check ? firstRefused(list) : undefined;
        if (refused !== undefined) {
          const failure = Object.assign(new Error(refusalText(hostname, refused.address, refused.range)), {
            code: REFUSED_TARGET,
          });
          return callback(failure, []);
        }
        if ((options as { all?: boolean }).all === true) return callback(null, list);
        const first = list[0];
        if (first === undefined)
          return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
        callback(null, first.address, first.family);
      });
    };
  }
}
