import { Injectable } from '@nestjs/common';
import { AppConfig } from '@dam/core';
import { TooManyRequests } from '@dam/errors';
import { RateCounters, CounterWindow } from '@dam/rate-limits';
import { createHash } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';

/** A credential attempt let through: it must say how it ended. */
export interface LoginAttempt {
  /** The password or secret was right: the attempt does not count as a failure. */
  succeeded(): Promise<void>;
}

/** What an attempt authenticates as: a username or a client id, exactly as stored (or as given if unknown). */
export interface LoginSubject {
  /** `share`: a share's password (the shares lib), named by the share's id. */
  kind: 'user' | 'client' | 'share';
  name: string;
}

/**
 * Failed password grants and failed client authentications, shared by every instance (RateCounters), in
 * windows of DAM_LOGIN_WINDOW_SECONDS from their first failure. An attempt answers 429 with `Retry-After`,
 * even with the right password, while
 * - its subject (username or client id) has DAM_LOGIN_MAX_FAILURES failures from its address: the pair is
 *   locked, the subject still logs in from elsewhere;
 * - its address has DAM_LOGIN_MAX_FAILURES_PER_ADDRESS failures, whatever the subjects;
 * - its subject has DAM_LOGIN_MAX_FAILURES failures in all, from DAM_LOGIN_LOCK_ADDRESSES distinct
 *   addresses or more: the subject is locked everywhere, until the window ends or `dam users:unlock`.
 * One address alone can therefore never lock an account for others.
 *
 * Each attempt counts before the password is checked and is taken back when it succeeds or is refused, so
 * a burst of parallel guesses cannot slip past the limit while the hashes are being compared. A locked
 * attempt is refused on a read alone, so a flood of them costs no writes, and answered
 * DAM_LOGIN_LOCKED_DELAY_MS (1 s) late. That costs the service a timer, not CPU, and holds the client's
 * loop: 16 concurrent loops of wrong secrets make 16 requests a second, not thousands, so they cannot
 * crowd out downloads on the event loop (bench/results/token-flood.md).
 */
@Injectable()
export class LoginThrottle {
  constructor(
    private readonly counters: RateCounters,
    private readonly config: AppConfig,
  ) {}

  /** Counts the attempt, or refuses it (TooManyRequests) while its subject or address is locked. */
  async attempt(subject: LoginSubject, address: string | undefined): Promise<LoginAttempt> {
    const keys = keysOf(subject, address ?? 'unknown');
    const windowMs = this.config.loginWindowSeconds * 1000;
    const before = await this.counters.peek([keys.pair, keys.address, keys.subject, keys.addresses]);
    const locked = this.lockOf({
      pair: before.get(keys.pair),
      address: before.get(keys.address),
      subject: before.get(keys.subject),
      addresses: before.get(keys.addresses)?.hits ?? 0,
    });
    if (locked !== undefined) return this.refuse(locked);
    // One step for the three: concurrent attempts are then counted in the same order on each of them.
    const [pair, addressWindow, subjectWindow] = await this.counters.hitAll(
      [keys.pair, keys.address, keys.subject],
      windowMs,
    );
    const counted = [keys.pair, keys.address, keys.subject];
    let addresses = before.get(keys.addresses)?.hits ?? 0;
    if (pair.hits === 1) {
      // The first failure from this address in its window: one more address (not counting this attempt).
      addresses = (await this.counters.hit(keys.addresses, windowMs)).hits - 1;
      counted.push(keys.addresses);
    }
    // What this attempt found: the hits before its own (concurrent attempts that came first count).
    const overtaken = this.lockOf({
      pair: { ...pair, hits: pair.hits - 1 },
      address: { ...addressWindow, hits: addressWindow.hits - 1 },
      subject: { ...subjectWindow, hits: subjectWindow.hits - 1 },
      addresses,
    });
    if (overtaken !== undefined) {
      await this.counters.undo(counted);
      return this.refuse(overtaken);
    }
    return { succeeded: () => this.counters.undo(counted) };
  }

  /** Lifts every lock of the subject (everywhere and per address); address-wide locks stay. */
  async unlock(subject: LoginSubject): Promise<void> {
    const keys = keysOf(subject, '');
    await this.counters.clear([keys.subject, keys.addresses], [keys.pairPrefix]);
  }

  /** Answers a locked attempt DAM_LOGIN_LOCKED_DELAY_MS late. */
  private async refuse(lock: TooManyRequests): Promise<never> {
    await delay(this.config.loginLockedDelayMs);
    throw lock;
  }

  /** The lock in force for what an attempt found, as the refusal to answer; undefined when none. */
  private lockOf(found: {
    pair: CounterWindow | undefined;
    address: CounterWindow | undefined;
    subject: CounterWindow | undefined;
    addresses: number;
  }): TooManyRequests | undefined {
    const { loginMaxFailures, loginMaxFailuresPerAddress, loginLockAddresses } = this.config;
    const locks = [
      (found.pair?.hits ?? 0) >= loginMaxFailures ? found.pair : undefined,
      (found.address?.hits ?? 0) >= loginMaxFailuresPerAddress ? found.address : undefined,
      (found.subject?.hits ?? 0) >= loginMaxFailures && found.addresses >= loginLockAddresses
        ? found.subject
        : undefined,
    ].filter((window): window is CounterWindow => window !== undefined);
    if (locks.length === 0) return undefined;
    const endsAt = Math.max(...locks.map((window) => window.endsAt));
    const seconds = Math.max(1, Math.ceil((endsAt - Date.now()) / 1000));
    return new TooManyRequests(`too many failed logins; try again in ${seconds} seconds`, seconds);
  }
}

/**
 * The counters of one attempt. Names are compared exactly (the caller passes the stored spelling) and
 * not kept in clear; keys stay within RateCounters' 100 characters.
 */
function keysOf(subject: LoginSubject, address: string) {
  const name = digest(subject.name);
  const pairPrefix = `login:${subject.kind}-at:${name}:`;
  return {
    subject: `login:${subject.kind}:${name}`,
    addresses: `login:${subject.kind}-addresses:${name}`,
    pairPrefix,
    pair: `${pairPrefix}${digest(address)}`,
    address: `login:address:${address}`.slice(0, 100),
  };
}

function digest(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 32);
}
