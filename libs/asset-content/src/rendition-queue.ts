import { Logger } from '@nestjs/common';

/**
 * Background work run at most `concurrency` at a time, each task started on a later turn of the event
 * loop than the one that queued it (so after the response that queued it is under way). Failures are
 * logged, never thrown. `idle()` resolves once nothing is queued or running.
 */
export class RenditionQueue {
  private readonly logger = new Logger('Renditions');
  private readonly waiting: Array<{ label: string; task: () => Promise<void> }> = [];
  private running = 0;
  private idleWaiters: Array<() => void> = [];

  constructor(readonly concurrency = 1) {}

  get size(): number {
    return this.waiting.length + this.running;
  }

  add(label: string, task: () => Promise<void>): void {
    this.waiting.push({ label, task });
    setImmediate(() => this.next());
  }

  idle(): Promise<void> {
    if (this.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private next(): void {
    while (this.running < this.concurrency && this.waiting.length > 0) {
      const item = this.waiting.shift();
      if (item === undefined) break;
      this.running += 1;
      void item
        .task()
        .catch((error: unknown) => {
          this.logger.warn(`${item.label} failed: ${error instanceof Error ? error.message : String(error)}`);
        })
        .finally(() => {
          this.running -= 1;
          this.next();
        });
    }
    if (this.size === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }
}
