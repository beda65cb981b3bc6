import { DependencyUnavailable } from '@dam/errors';

/** The gate is full: this many hashes run and this many wait already. */
export class HashingBusy extends DependencyUnavailable {
  constructor() {
    super('too many passwords and secrets are being checked at once; try again shortly');
  }
}

/**
 * At most `concurrency` hashes at once, and at most `maxWaiting` more waiting for their turn (first come,
 * first served); a hash beyond that is refused at once (HashingBusy, a 503). scrypt runs on libuv's
 * thread pool (4 threads by default), which file reads and writes share: bounded here, a flood of
 * logins cannot take every thread and stall downloads.
 */
export class HashingGate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly concurrency: number,
    private readonly maxWaiting: number,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.maxWaiting) throw new HashingBusy();
      // The slot is handed over by the hash that ends (running stays counted), never raced for.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next === undefined) this.running--;
      else next();
    }
  }
}
