import { Injectable } from '@nestjs/common';
import { AppConfig } from '@dam/core';
import { InvalidInput } from '@dam/errors';
import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook may not reach (SSRF): loopback, link-local, private and other non-public ranges,
 * IPv4 and IPv6 (IPv4-mapped IPv6 addresses are judged as the IPv4 they carry).
 */
const BLOCKED = ((): BlockList => {
  const list = new BlockList();
  for (const [network, bits] of [
    ['0.0.0.0', 8], // "this" network
    ['10.0.0.0', 8], // private
    ['100.64.0.0', 10], // carrier-grade NAT
    ['127.0.0.0', 8], // loopback
    ['169.254.0.0', 16], // link-local (cloud metadata services)
    ['172.16.0.0', 12], // private
    ['192.0.0.0', 24], // IETF protocol assignments
    ['192.0.2.0', 24], // documentation
    ['192.168.0.0', 16], // private
    ['198.18.0.0', 15], // benchmarking
    ['198.51.100.0', 24], // documentation
    ['203.0.113.0', 24], // documentation
    ['224.0.0.0', 4], // multicast
    ['240.0.0.0', 4], // reserved, broadcast
  ] as const)
    list.addSubnet(network, bits, 'ipv4');
  for (const [network, bits] of [
    ['::', 128], // unspecified
    ['::1', 128], // loopback
    ['64:ff9b::', 96], // NAT64 (carries an IPv4 address)
    ['100::', 64], // discard
    ['2001:db8::', 32], // documentation
    ['fc00::', 7], // unique local
    ['fe80::', 10], // link-local
    ['ff00::', 8], // multicast
  ] as const)
    list.addSubnet(network, bits, 'ipv6');
  return list;
})();

/** Whether `address` (an IP) is one a webhook may not target. */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped !== null) return isBlockedAddress(mapped[1]);
    return BLOCKED.check(address, 'ipv6');
  }
  return BLOCKED.check(address, 'ipv4');
}

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
    if (this.isAllowListed(url) || isIP(host) === 0 || !isBlockedAddress(host)) return undefined;
    return `${host} is a loopback, link-local or private address (list it in DAM_WEBHOOK_ALLOWED_HOSTS to allow it)`;
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
    const blocked = addresses.find((entry) => isBlockedAddress(entry.address));
    return blocked === undefined
      ? undefined
      : `${host} resolves to ${blocked.address}, a loopback, link-local or private address (list it in DAM_WEBHOOK_ALLOWED_HOSTS to allow it)`;
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
        const blocked = check ? list.find((entry) => isBlockedAddress(entry.address)) : undefined;
        if (blocked !== undefined) {
          const refused = Object.assign(
            new Error(
              `${hostname} resolves to ${blocked.address}, a loopback, link-local or private address`,
            ),
            { code: 'EWEBHOOKTARGET' },
          );
          return callback(refused, []);
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
