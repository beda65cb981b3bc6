import { Logger } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { isIP } from 'node:net';
import { AppConfig } from '@dam/core';
import { HostPort, hostPortText, parseHostPort } from '@dam/core';

/**
 * One trusted origin (docs/security.md "Trusted origin"). URLs the service hands out take their origin
 * from DAM_PUBLIC_URL; without it, from the host the request names, which must then be one of this
 * service's: DAM_ALLOWED_HOSTS, or by default `localhost`, `127.0.0.1`, `[::1]` and the address the
 * connection arrived on (an address the service listens on), on any port. Any other `Host` (or
 * `X-Forwarded-Host` with DAM_TRUST_PROXY) answers 400 before any routing. With DAM_PUBLIC_URL set the
 * request's host builds nothing, and only an explicit DAM_ALLOWED_HOSTS is enforced.
 *
 * `/health`, `/health/*` and `/metrics` are exempt: orchestrators and scrapers call them by the pod's
 * address, and they build no URL (their requests get the configured origin, never their `Host`).
 */
export class TrustedOrigin {
  private readonly logger = new Logger('TrustedOrigin');
  /** Refused hosts already logged (bounded: the header is the client's). */
  private readonly logged = new Set<string>();
  private readonly enforced: boolean;
  /** Allowed `Host` (or `X-Forwarded-Host`) texts and their origins, per scheme (see judge). */
  private readonly httpOrigins = new Map<string, string>();
  private readonly httpsOrigins = new Map<string, string>();

  constructor(private readonly config: AppConfig) {
    this.enforced = config.publicUrl === undefined || config.allowedHosts !== undefined;
  }

  /**
   * The origin of what is produced outside a request's answer (webhook payloads, jobs): DAM_PUBLIC_URL
   * (with its path prefix), else `http://` and the first DAM_ALLOWED_HOSTS entry, else
   * `http://localhost:{PORT}`.
   */
  configured(): string {
    return configuredOrigin(this.config);
  }

  /** Express middleware, first on the stack: refuses foreign hosts and records each request's origin. */
  middleware(): RequestHandler {
    return (request: Request, response: Response, next: NextFunction): void => {
      const judged = this.judge(request);
      if (typeof judged !== 'string') {
        this.log(judged.refusal);
        response.status(400).type('text/plain; charset=utf-8').send(judged.refusal);
        return;
      }
      (request as WithOrigin)[ORIGIN] = judged;
      next();
    };
  }

  /** The request's origin, or why it is refused. */
  private judge(request: Request): string | { refusal: string } {
    if (!this.enforced || isExempt(request.path)) return this.configured();
    const forwarded = this.config.trustProxy ? firstValue(request.header('x-forwarded-host')) : undefined;
    const text = forwarded ?? request.header('host');
    // HTTP/1.0 without Host: nothing to trust, nothing to refuse.
    if (text === undefined || text === '') return this.configured();
    const scheme = this.schemeOf(request);
    const origins = scheme === 'https' ? this.httpsOrigins : this.httpOrigins;
    // Hot path: a host already allowed, whatever the connection, answers its origin without parsing.
    const known = origins.get(text);
    if (known !== undefined) return known;
    const host = parseHostPort(text);
    if (host === undefined || !this.allows(host, scheme, request.socket.localAddress)) {
      const header = forwarded === undefined ? 'Host' : 'X-Forwarded-Host';
      return { refusal: `${header} ${quoted(text)} is not a name of this service` };
    }
    const origin = `${scheme}://${hostPortText(host)}`;
    // Only what does not depend on the connection's address; bounded (the header is the client's).
    const connectionFree = this.config.allowedHosts !== undefined || LOCAL_NAMES.includes(host.hostname);
    if (connectionFree && origins.size < KNOWN_ORIGINS) origins.set(text, origin);
    return origin;
  }

  private allows(host: HostPort, scheme: string, localAddress: string | undefined): boolean {
    const allowed = this.config.allowedHosts;
    if (allowed === undefined)
      return LOCAL_NAMES.includes(host.hostname) || host.hostname === hostnameOfAddress(localAddress);
    const port = host.port ?? (scheme === 'https' ? 443 : 80);
    return allowed.some(
      (entry) => entry.hostname === host.hostname && (entry.port === undefined || entry.port === port),
    );
  }

  private schemeOf(request: Request): 'http' | 'https' {
    const forwarded = this.config.trustProxy ? firstValue(request.header('x-forwarded-proto')) : undefined;
    if (forwarded === 'https' || forwarded === 'http') return forwarded;
    return request.protocol === 'https' ? 'https' : 'http';
  }

  private log(refusal: string): void {
    if (this.logged.has(refusal) || this.logged.size >= 256) return;
    this.logged.add(refusal);
    this.logger.warn(`refused: ${refusal} (set DAM_PUBLIC_URL, or list the host in DAM_ALLOWED_HOSTS)`);
  }
}

/** See TrustedOrigin.configured. */
export function configuredOrigin(config: AppConfig): string {
  if (config.publicUrl !== undefined) return config.publicUrl;
  const first = config.allowedHosts?.[0];
  return first === undefined ? `http://localhost:${config.port}` : `http://${hostPortText(first)}`;
}

/** The origin TrustedOrigin's middleware recorded for `request` (undefined when it did not run). */
export function recordedOriginOf(request: Request): string | undefined {
  return (request as WithOrigin)[ORIGIN];
}

const ORIGIN = Symbol('trustedOrigin');
type WithOrigin = { [ORIGIN]?: string };

const LOCAL_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/** How many allowed host texts TrustedOrigin remembers per scheme. */
const KNOWN_ORIGINS = 64;

function isExempt(path: string): boolean {
  return path === '/health' || path.startsWith('/health/') || path === '/metrics';
}

/** A socket's address as a URL's hostname (IPv4-mapped IPv6 as its IPv4; IPv6 bracketed). */
function hostnameOfAddress(address: string | undefined): string | undefined {
  if (address === undefined) return undefined;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped !== null) return mapped[1];
  if (isIP(address) === 4) return address;
  return isIP(address) === 6 ? parseHostPort(`[${address}]`)?.hostname : undefined;
}

function firstValue(header: string | undefined): string | undefined {
  const value = header?.split(',')[0]?.trim();
  return value === '' ? undefined : value;
}

function quoted(text: string): string {
  return JSON.stringify(text.length > 100 ? `${text.slice(0, 100)}...` : text);
}
