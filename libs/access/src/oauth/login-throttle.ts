import { Injectable } from '@nestjs/common';
import { AppConfig } from '@dam/core';
import { TooManyRequests } from '@dam/errors';
import { RateCounters, CounterWindow } from '@dam/rate-limits';
import { createHash } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';

/** What an attempt authenticates as: a username or a client id, exactly as stored (or as given if unknown). */
export interface LoginSubject {
  /** `share`: a share's password (the shares lib), named by the share's id. */
  kind: 'user' | 'client' | 'share';
  name: string;
}

/** How long an attempt waits at most for the attempts ahead of it that are still being checked. */
const WAIT_FOR_PENDING_MS = 5000;
/** Its first look at the counters again; each later one comes twice as late, up to the second figure. */
const FIRST_POLL_MS = 10;
const LAST_POLL_MS = 320;

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
 * Each counter has a twin that counts the attempts being checked (pending). An attempt counts itself there
 * before its secret is compared, and moves to the failures or goes when it is decided. The limits apply to
 * failures and pending attempts together, so a burst of parallel guesses cannot slip past them while the
 * hashes are being compared: no more guesses than the limit are ever checked. An attempt that finds a limit
 * reached only with attempts still pending waits for them (it reads the counters again, less and less
 * often, for up to WAIT_FOR_PENDING_MS): if they were right it goes on, if they were wrong the lock is real
 * and it is refused. So right passwords and client secrets sent in parallel from one address (a backend's
 * token requests) are never refused for their number. A locked attempt is refused on a read alone, so a
 * flood of them costs no writes, and answered DAM_LOGIN_LOCKED_DELAY_MS (1 s) late. That costs the service
 * a timer, not CPU, and holds the client's loop: 16 concurrent loops of wrong secrets make 16 requests a
 * second, not thousands, so they cannot crowd out downloads on the event loop
 * (bench/results/token-flood.md).
 */
@Injectable()
export class LoginThrottle {
  constructor(
    private readonly counters: RateCounters,
    private readonly config: AppConfig,
  ) {}

  /**
   * One attempt: refused (TooManyRequests) while its subject or address is locked; otherwise counted as
   * pending while `check` compares the secret (true when right), then counted as a failure when wrong.
   * Answers what `check` answered.
   */
  async check(
    subject: LoginSubject,
    address: string | undefined,
    check: () => Promise<boolean>,
  ): Promise<boolean> {
    const keys = keysOf(subject, address ?? 'unknown');
    const windowMs = this.config.loginWindowSeconds * 1000;
    await this.countPending(keys, windowMs);
    let right: boolean;
    try {
      right = await check();
    } catch (error) {
      await this.counters.undo(pendingKeysOf(keys));
      throw error;
    }
    if (!right) {
      // The failure first, then the pending count: together they never count this attempt less than once.
      const [pair] = await this.counters.hitAll([keys.pair, keys.address, keys.subject], windowMs);
      // The subject's first failure from this address in its window: one more address.
      if (pair.hits === 1) await this.counters.hit(keys.addresses, windowMs);
    }
    await this.counters.undo(pendingKeysOf(keys));
    return right;
  }

  /** Lifts every lock of the subject (everywhere and per address); address-wide locks stay. */
  async unlock(subject: LoginSubject): Promise<void> {
    const keys = keysOf(subject, '');
    await this.counters.clear(
      [keys.subject, pendingOf(keys.subject), keys.addresses],
      [keys.pairPrefix, pendingOf(keys.pairPrefix)],
    );
  }

  /** Counts the attempt among the pending ones, waiting its turn behind those still being checked. */
  private async countPending(keys: LoginKeys, windowMs: number): Promise<void> {
    const waitUntil = Date.now() + WAIT_FOR_PENDING_MS;
    for (let poll = FIRST_POLL_MS; ; poll = Math.min(poll * 2, LAST_POLL_MS)) {
      const found = await this.read(keys);
      const locked = this.lockOf(found, false);
      if (locked !== undefined) return this.refuse(locked);
      if (this.lockOf(found, true) === undefined && (await this.countedUnderTheLimits(keys, windowMs)))
        return;
      if (Date.now() >= waitUntil) return this.refuse(this.lockOf(found, true) ?? tooMany(1));
      await delay(poll);
    }
  }

  /**
   * Counts the attempt as pending, and keeps it when what came before it (the failures, and the attempts
   * counted pending before it) leaves it under every limit; otherwise takes it back and answers false.
   */
  private async countedUnderTheLimits(keys: LoginKeys, windowMs: number): Promise<boolean> {
    // One step for the three: concurrent attempts are then counted in the same order on each of them.
    const [pair, address, subject] = await this.counters.hitAll(pendingKeysOf(keys), windowMs);
    // The failures read after the count: an attempt decided meanwhile may be in both, never in neither.
    const before: Found = {
      ...(await this.read(keys)),
      pendingPair: pair.hits - 1,
      pendingAddress: address.hits - 1,
      pendingSubject: subject.hits - 1,
    };
    if (this.lockOf(before, true) === undefined) return true;
    await this.counters.undo(pendingKeysOf(keys));
    return false;
  }

  /** The failures and the pending attempts on an attempt's counters. */
  private async read(keys: LoginKeys): Promise<Found> {
    const [pendingPair, pendingAddress, pendingSubject] = pendingKeysOf(keys);
    const found = await this.counters.peek([
      keys.pair,
      keys.address,
      keys.subject,
      keys.addresses,
      pendingPair,
      pendingAddress,
      pendingSubject,
    ]);
    return {
      pair: found.get(keys.pair),
      address: found.get(keys.address),
      subject: found.get(keys.subject),
      addresses: found.get(keys.addresses)?.hits ?? 0,
      pendingPair: found.get(pendingPair)?.hits ?? 0,
      pendingAddress: found.get(pendingAddress)?.hits ?? 0,
      pendingSubject: found.get(pendingSubject)?.hits ?? 0,
    };
  }

  /** Answers a locked attempt DAM_LOGIN_LOCKED_DELAY_MS late. */
  private async refuse(lock: TooManyRequests): Promise<never> {
    await delay(this.config.loginLockedDelayMs);
    throw lock;
  }

  /**
   * The lock in force for what an attempt found, as the refusal to answer; undefined when none. With
   * `pending`, the attempts being checked count as failures.
   */
  private lockOf(found: Found, pending: boolean): TooManyRequests | undefined {
    const { loginMaxFailures, loginMaxFailuresPerAddress, loginLockAddresses } = this.config;
    const count = (window: CounterWindow | undefined, pendingHits: number) =>
      (window?.hits ?? 0) + (pending ? pendingHits : 0);
    const reached = [
      count(found.pair, found.pendingPair) >= loginMaxFailures && { window: found.pair },
      count(found.address, found.pendingAddress) >= loginMaxFailuresPerAddress && { window: found.address },
      count(found.subject, found.pendingSubject) >= loginMaxFailures &&
        found.addresses >= loginLockAddresses && { window: found.subject },
    ].filter((lock) => lock !== false);
    if (reached.length === 0) return undefined;
    // Attempts still pending lock no window of their own: a second, then a look again.
    const endsAt = Math.max(...reached.map((lock) => lock.window?.endsAt ?? 0));
    return tooMany(Math.max(1, Math.ceil((endsAt - Date.now()) / 1000)));
  }
}

/** What an attempt found on its counters: the failures' windows, and the attempts pending on each. */
interface Found {
  pair: CounterWindow | undefined;
  address: CounterWindow | undefined;
  subject: CounterWindow | undefined;
  /** Distinct addresses the subject failed from in its window. */
  addresses: number;
  pendingPair: number;
  pendingAddress: number;
  pendingSubject: number;
}

function tooMany(seconds: number): TooManyRequests {
  return new TooManyRequests(`too many failed logins; try again in ${seconds} seconds`, seconds);
}

interface LoginKeys {
  subject: string;
  addresses: string;
  pairPrefix: string;
  pair: string;
  address: string;
}

/** The twin of a counter that counts the attempts being checked (keys stay within 100 characters). */
function pendingOf(key: string): string {
  return `pending:${key}`;
}

function pendingKeysOf(keys: LoginKeys): string[] {
  return [pendingOf(keys.pair), pendingOf(keys.address), pendingOf(keys.subject)];
}

/**
 * The counters of one attempt. Names are compared exactly (the caller passes the stored spelling) and
 * not kept in clear; keys, and `pending:` before them, stay within RateCounters' 100 characters.
 */
function keysOf(subject: LoginSubject, address: string): LoginKeys {
  const name = digest(subject.name);
  const pairPrefix = `login:${subject.kind}-at:${name}:`;
  return {
    subject: `login:${subject.kind}:${name}`,
    addresses: `login:${subject.kind}-addresses:${name}`,
    pairPrefix,
    pair: `${pairPrefix}${digest(address)}`,
    address: `login:address:${address}`.slice(0, 92),
  };
}

function digest(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 32);
}
