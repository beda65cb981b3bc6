import { Injectable } from '@nestjs/common';
import { AppConfig } from '@dam/core';
import { TooManyRequests } from '@dam/errors';
import { RateCounters } from '@dam/rate-limits';
import { createHash } from 'node:crypto';

/** A password grant let through: it must say how it ended. */
export interface LoginAttempt {
  /** The password was right: the attempt does not count as a failure. */
  succeeded(): Promise<void>;
}

/**
 * Failed password grants, per username and per client address, shared by every instance (RateCounters):
 * after DAM_LOGIN_MAX_FAILURES failures for one username, or from one address, within a window of
 * DAM_LOGIN_WINDOW_SECONDS (which starts at the first failure), every password grant for that username or
 * from that address answers 429 with `Retry-After` until the window ends, even with the right password.
 *
 * Each attempt counts before the password is checked and is taken back when it succeeds or is refused, so
 * a burst of parallel guesses cannot slip past the limit while the hashes are being compared.
 */
@Injectable()
export class LoginThrottle {
  constructor(
    private readonly counters: RateCounters,
    private readonly config: AppConfig,
  ) {}

  /** Counts the attempt, or refuses it (TooManyRequests) while the username or address is over the limit. */
  async attempt(username: string, address: string | undefined): Promise<LoginAttempt> {
    const keys = [
      userKey(username),
      ...(address === undefined ? [] : [`login:address:${address}`.slice(0, 100)]),
    ];
    const windowMs = this.config.loginWindowSeconds * 1000;
    const windows = await Promise.all(keys.map((key) => this.counters.hit(key, windowMs)));
    const over = windows.filter((window) => window.hits > this.config.loginMaxFailures);
    if (over.length > 0) {
      await this.counters.undo(keys);
      const seconds = Math.max(1, Math.ceil((Math.max(...over.map((w) => w.endsAt)) - Date.now()) / 1000));
      throw new TooManyRequests(`too many failed logins; try again in ${seconds} seconds`, seconds);
    }
    return { succeeded: () => this.counters.undo(keys) };
  }
}

/** Usernames are compared without case (MariaDB's collation does), and not kept in clear. */
function userKey(username: string): string {
  return `login:user:${createHash('sha256').update(username.toLowerCase(), 'utf8').digest('hex')}`;
}
