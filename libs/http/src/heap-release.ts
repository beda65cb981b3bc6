import { OnApplicationBootstrap, OnModuleDestroy, Provider } from '@nestjs/common';
import { AppConfig } from '@dam/core';
import { Collect, StreamGarbage } from './stream-garbage';

/** How often the process looks whether it is idle (a whole period with no request and no stream). */
export const IDLE_CHECK_MS = 1000;

/** What HeapRelease reads and does, apart from the timer (the spec gives its own). */
export interface HeapReleaseProbes {
  /** Requests started so far. */
  requests(): number;
  /** Body bytes streamed so far (uploads, downloads). */
  streamed(): number;
  /** Resident memory now, in bytes. */
  rss(): number;
  collect: Collect | null;
}

const processProbes: HeapReleaseProbes = {
  requests: () => HeapRelease.requests,
  streamed: () => StreamGarbage.total,
  rss: () => process.memoryUsage.rss(),
  collect: null,
};

/**
 * Gives the memory a busy spell grew back to the system once the process is idle again.
 *
 * Under a read load V8 grows its young generation (up to `--max-semi-space-size`, twice, as two
 * semi-spaces) and its old space, and keeps the pages when the load stops: after 60 s of GETs at 32
 * connections RSS stayed at 389 MB for good (bench/results/read-allocation.md), 250 MB of it committed
 * but free heap. V8's memory reducer, which would shrink it, never started (it waits for a full
 * collection, which a read load with little live data rarely needs). So: every IDLE_CHECK_MS, when no
 * request started and no body byte streamed since the last look (but some did since the last release),
 * and RSS is DAM_HEAP_RELEASE_MB or more above where the last release (or the boot) left it, one
 * last-resort collection: V8 collects until nothing more is freed and shrinks its spaces to what is live
 * (RSS back to ~145 MB). It blocks the
 * event loop for its length (0.1-1.1 s for the ~50 MB live heap on a shared machine at load 12-25; not yet
 * measured quiet), which is why it waits for a second of silence and runs once per busy spell. 0: off.
 * Provided by `heapReleaseProvider` (the probes are no injectable).
 */
export class HeapRelease implements OnApplicationBootstrap, OnModuleDestroy {
  /** Requests started in this process; counted by the request context. */
  static requests = 0;

  private timer: NodeJS.Timeout | undefined;
  private seenRequests = -1;
  private seenStreamed = -1;
  private floor = 0;
  private requestsAtRelease = 0;
  /** Releases done (for the spec and the logs' curiosity). */
  releases = 0;

  constructor(
    private readonly config: AppConfig,
    private readonly probes: HeapReleaseProbes = { ...processProbes, collect: StreamGarbage.collector() },
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.heapReleaseMb === 0 || this.probes.collect === null) return;
    this.floor = this.probes.rss();
    this.timer = setInterval(() => this.check(), IDLE_CHECK_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One look: releases when the last period was idle and RSS grew past the threshold since the last release. */
  check(): void {
    const requests = this.probes.requests();
    const streamed = this.probes.streamed();
    const idle = requests === this.seenRequests && streamed === this.seenStreamed;
    this.seenRequests = requests;
    this.seenStreamed = streamed;
    if (!idle || this.probes.collect === null || this.config.heapReleaseMb === 0) return;
    // Only after requests (a process that serves none, the CLI's, never collects here).
    if (requests === this.requestsAtRelease) return;
    if (this.probes.rss() - this.floor < this.config.heapReleaseMb * 1024 * 1024) return;
    this.probes.collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    this.releases++;
    this.requestsAtRelease = requests;
    this.floor = this.probes.rss();
  }
}

export const heapReleaseProvider: Provider = {
  provide: HeapRelease,
  inject: [AppConfig],
  useFactory: (config: AppConfig) => new HeapRelease(config),
};
