import { Logger } from '@nestjs/common';
import type { Lock, Locker, RequestRelease } from '@tus/server';
import { randomUUID } from 'node:crypto';
import { TusUploadsRepository } from './tus-uploads.repository';

export interface LockTimings {
  /** A lease lasts this long unless renewed: how long a dead instance's lock blocks the upload. */
  leaseMs: number;
  /** The holder renews its lease (and looks for release requests) this often. */
  heartbeatMs: number;
  /** A waiting request retries this often. */
  pollMs: number;
  /** A request that has not got the lock by then gives up (423). */
  acquireTimeoutMs: number;
}

export const DEFAULT_LOCK_TIMINGS: LockTimings = {
  leaseMs: 15_000,
  heartbeatMs: 1_000,
  pollMs: 100,
  acquireTimeoutMs: 30_000,
};

/** The tus error a request gets when it cannot lock its upload in time: clients retry a 423. */
export const LOCK_TIMEOUT = { status_code: 423, body: 'another request is writing this upload: try again' };

const logger = new Logger('TusLocker');

/**
 * tus's Locker on the `tus_locks` table, so that every instance sharing the database agrees on who may
 * write an upload (tus's default locker only knows its own process). A lock is a lease: the holder renews
 * it every `heartbeatMs`, and a dead holder's lock is free once `leaseMs` passed. A request that waits
 * sets `release_requested`; the holder sees it at its next heartbeat and calls tus's `requestRelease`,
 * which ends its request (an abandoned PATCH of a client that reconnected) after tus's drain time.
 */
export class DatabaseLocker implements Locker {
  constructor(
    private readonly locks: TusUploadsRepository,
    private readonly timings: LockTimings = DEFAULT_LOCK_TIMINGS,
  ) {}

  newLock(id: string): Lock {
    return new DatabaseLock(uploadIdOf(id), this.locks, this.timings);
  }
}

/** tus ids are `tus/{hex}`; the table keys the hex. */
function uploadIdOf(tusId: string): string {
  return tusId.startsWith('tus/') ? tusId.slice(4) : tusId;
}

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

class DatabaseLock implements Lock {
  private readonly holder = randomUUID();
  private heartbeat: NodeJS.Timeout | undefined;
  private held = false;

  constructor(
    private readonly uploadId: string,
    private readonly locks: TusUploadsRepository,
    private readonly timings: LockTimings,
  ) {}

  async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    const deadline = Date.now() + this.timings.acquireTimeoutMs;
    for (let asked = false; ;) {
      if (await this.locks.tryLock(this.uploadId, this.holder, this.expiry(), new Date())) break;
      if (!asked) {
        await this.locks.requestRelease(this.uploadId);
        asked = true;
      }
      if (signal.aborted || Date.now() >= deadline) throw LOCK_TIMEOUT;
      await sleep(this.timings.pollMs, signal);
    }
    this.held = true;
    let releaseAsked = false;
    this.heartbeat = setInterval(() => {
      this.locks
        .renewLock(this.uploadId, this.holder, this.expiry())
        .then(async (state) => {
          if (state === 'release-requested' && !releaseAsked && this.held) {
            releaseAsked = true;
            await requestRelease();
          }
        })
        .catch((error: unknown) =>
          logger.warn(
            `could not renew the lock of upload ${this.uploadId}: ${error instanceof Error ? error.message : String(error)}`,
          ),
        );
    }, this.timings.heartbeatMs);
    this.heartbeat.unref();
  }

  async unlock(): Promise<void> {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    if (!this.held) return;
    this.held = false;
    await this.locks.unlock(this.uploadId, this.holder);
  }

  /** Whole seconds, rounded up: a DATETIME keeps no fraction (MariaDB truncates it). */
  private expiry(): Date {
    return new Date(Math.ceil((Date.now() + this.timings.leaseMs) / 1000) * 1000);
  }
}
