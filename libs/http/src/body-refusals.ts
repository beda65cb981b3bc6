import { createHash } from 'node:crypto';
import type { Request } from 'express';
import { setTimeout as delay } from 'node:timers/promises';
import { TooManyRequests } from '@dam/errors';

const WINDOW_MS = 60_000;
/** Counters kept at most (one per address and per token that had a body refused in the last minute). */
const MAX_ENTRIES = 10_000;
/**
 * A request past the budget is answered this late (as a locked login is): it costs the service a timer
 * and a socket, not CPU, and holds the client's loop, so a loop of refused bodies sends one a second.
 */
export const REFUSED_BODY_ANSWER_DELAY_MS = 1000;

interface Window {
  hits: number;
  endsAt: number;
}

/**
 * The budget of refused request bodies (DAM_BODY_REFUSALS_PER_MINUTE): bodies the body parser refused
 * (413, 400, 415) are counted per client address (`request.ip`, X-Forwarded-For under DAM_TRUST_PROXY) and
 * per bearer token, in fixed windows of a minute. Past the budget, a request with a body from that
 * address or with that token answers 429 with `Retry-After`, REFUSED_BODY_ANSWER_DELAY_MS late and before
 * any byte of its body is read, and its connection is closed. In memory, per instance: what it spares is the instance's own CPU.
 */
export class BodyRefusals {
  private readonly windows = new Map<string, Window>();

  /** `perMinute`: refused bodies allowed a minute per address and per token; 0 counts nothing. */
  constructor(private readonly perMinute: number) {}

  /** Throws TooManyRequests (after the delay) when the request's address or token has used up its budget. */
  async check(request: Request): Promise<void> {
    if (this.perMinute === 0) return;
    const now = Date.now();
    for (const key of keysOf(request)) {
      const window = this.windows.get(key);
      if (window === undefined || window.endsAt <= now || window.hits < this.perMinute) continue;
      const seconds = Math.max(1, Math.ceil((window.endsAt - now) / 1000));
      await delay(REFUSED_BODY_ANSWER_DELAY_MS);
      throw new TooManyRequests(
        `more than ${this.perMinute} request bodies refused in a minute from this address or access token;` +
          ` try again in ${seconds} s`,
        seconds,
      );
    }
  }

  /** Counts one refused body against the request's address and token. */
  record(request: Request): void {
    if (this.perMinute === 0) return;
    const now = Date.now();
    if (this.windows.size >= MAX_ENTRIES) this.evict(now);
    for (const key of keysOf(request)) {
      const window = this.windows.get(key);
      if (window === undefined || window.endsAt <= now)
        this.windows.set(key, { hits: 1, endsAt: now + WINDOW_MS });
      else window.hits += 1;
    }
  }

  /** Drops ended windows; when all are current, the oldest half (a flood of addresses forgets early ones). */
  private evict(now: number): void {
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
    let surplus = this.windows.size - MAX_ENTRIES / 2;
    for (const key of this.windows.keys()) {
      if (surplus-- <= 0) break;
      this.windows.delete(key);
    }
  }
}

function keysOf(request: Request): string[] {
  const keys = [`address:${request.ip ?? request.socket.remoteAddress ?? 'unknown'}`];
  const token = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
  if (token !== undefined) keys.push(`token:${createHash('sha256').update(token).digest('base64url')}`);
  return keys;
}
