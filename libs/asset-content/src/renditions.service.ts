import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '@dam/core';
import { randomUUID } from 'node:crypto';
import { previewSourceOf } from './content-types';
import { RenditionTaskEntity } from './entities/rendition-task.entity';
import { RenditionMaker } from './rendition-maker';
import { RenditionQueue } from './rendition-queue';
import { RenditionTasksRepository } from './rendition-tasks.repository';

export { fitInside, RENDITION_SIZES } from './rendition-maker';

/** A task claimed this many times without finishing (its worker died on it each time) is given up. */
export const MAX_RENDITION_ATTEMPTS = 3;
/** How often `idle()` looks at the queue while it waits. */
const IDLE_CHECK_MS = 50;

/**
 * The rendition queue (DESIGN §12, "Previews"): an upload queues its file's renditions as a row of
 * `rendition_tasks` before it answers; workers, the processes with DAM_ROLE `worker` or `all`, claim the
 * rows through the database with a lease they renew while they work and make the renditions
 * (`RenditionMaker`), at most DAM_RENDITION_CONCURRENCY at a time each. An `api` process never makes
 * any. A worker looks for work when its own process queued some, and every DAM_RENDITION_POLL_MS for the
 * rest (other instances' uploads, expired claims of dead workers). Failures are logged, never thrown.
 */
@Injectable()
export class RenditionsService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Renditions');
  private readonly queue: RenditionQueue;
  /** Identifies this process's claims. */
  readonly holder = `${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly working = new Set<number>();
  private filling: Promise<void> | undefined;
  private refill = false;
  private poller: NodeJS.Timeout | undefined;
  private renewer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly tasks: RenditionTasksRepository,
    private readonly maker: RenditionMaker,
    private readonly config: AppConfig,
  ) {
    this.queue = new RenditionQueue(config.renditionConcurrency);
  }

  get isWorker(): boolean {
    return this.config.role !== 'api';
  }

  private get leaseMs(): number {
    return this.config.previews.leaseSeconds * 1000;
  }

  onApplicationBootstrap(): void {
    if (!this.isWorker) return;
    const { pollMs } = this.config.previews;
    if (pollMs > 0) this.poller = setInterval(() => this.poke(), pollMs).unref();
    this.renewer = setInterval(() => void this.renew(), Math.max(200, this.leaseMs / 3)).unref();
    // Work left by a previous run of this or another instance.
    this.poke();
  }

  /**
   * Queues the renditions of the asset's file when its type is previewable (images, videos, PDFs); resolves once
   * the task is recorded, not made. A failure to record it is logged (regenerate-renditions finds the gap).
   */
  async generateLater(assetId: number, fileId: number, contentType: string): Promise<void> {
    if (previewSourceOf(contentType) === undefined) return;
    try {
      await this.tasks.enqueue(assetId, fileId);
    } catch (error) {
      this.logger.warn(`renditions of asset ${assetId} not queued: ${(error as Error).message}`);
      return;
    }
    this.poke();
  }

  /** Resolves once the queue in the database is empty and nothing runs here (tests and jobs wait on it). */
  async idle(): Promise<void> {
    for (;;) {
      await this.queue.idle();
      if (this.filling !== undefined) await this.filling;
      if (this.queue.size === 0 && (await this.tasks.count()) === 0) return;
      this.poke();
      await new Promise((resolve) => setTimeout(resolve, IDLE_CHECK_MS));
    }
  }

  /** Renditions under way here finish (and release their tasks) before the database closes. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.poller);
    if (this.filling !== undefined) await this.filling;
    await this.queue.idle();
    clearInterval(this.renewer);
  }

  /** Claims as many tasks as this worker has free slots for, soon (one claim round at a time). */
  private poke(): void {
    if (!this.isWorker || this.stopped) return;
    if (this.filling !== undefined) {
      this.refill = true;
      return;
    }
    this.filling = this.fill()
      .catch((error: unknown) => this.logger.warn(`claiming renditions failed: ${(error as Error).message}`))
      .finally(() => {
        this.filling = undefined;
        if (this.refill) {
          this.refill = false;
          this.poke();
        }
      });
  }

  private async fill(): Promise<void> {
    const free = this.queue.concurrency - this.queue.size;
    if (free <= 0 || this.stopped) return;
    for (const task of await this.tasks.claim(this.holder, free, this.leaseMs)) {
      this.working.add(task.id);
      this.queue.add(`renditions of asset ${task.assetId}`, () => this.work(task));
    }
  }

  private async work(task: RenditionTaskEntity): Promise<void> {
    try {
      if (task.attempts > MAX_RENDITION_ATTEMPTS) {
        this.logger.warn(`renditions of asset ${task.assetId} given up after ${task.attempts - 1} attempts`);
      } else {
        await this.maker.make(task.assetId, task.fileId);
      }
    } finally {
      this.working.delete(task.id);
      await this.tasks.finish(task.id, this.holder);
      // On a later turn: by then the queue has released this task's slot, so the claim can fill it.
      setImmediate(() => this.poke());
    }
  }

  private async renew(): Promise<void> {
    try {
      await this.tasks.renew(this.holder, [...this.working], this.leaseMs);
    } catch (error) {
      this.logger.warn(`renewing rendition leases failed: ${(error as Error).message}`);
    }
  }
}
