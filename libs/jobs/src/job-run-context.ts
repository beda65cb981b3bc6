import { Logger } from '@nestjs/common';
import { describeError } from './job-errors';
import { JobRunsStore } from './job-runs.store';
import { LeaseService } from './lease.service';
import { JobContext, JobSummary } from './maintenance-job';

/** `checkpoint()` renews the lease (and saves the summary so far) at most this often. */
const CHECKPOINT_EVERY_MS = 1_000;
const MAX_DETAILS = 100;

/** What a run in progress needs to keep its lease and record its summary. */
export interface RunContextDeps {
  job: string;
  id: number;
  dryRun: boolean;
  ttlMs: number;
  leases: LeaseService;
  store: JobRunsStore;
  logger: Logger;
  /** The instance is shutting down: the next checkpoint throws. */
  stopping: () => boolean;
}

/**
 * The context a running job gets: its summary, `note()`, and `checkpoint()`, which renews the lease and
 * saves the summary so far; a heartbeat renews the lease meanwhile. `stop()` ends the heartbeat.
 */
export function openRunContext(deps: RunContextDeps): {
  summary: JobSummary;
  context: JobContext;
  stop: () => void;
} {
  const { job, id, ttlMs, leases, store } = deps;
  const summary: JobSummary = { examined: 0, changed: 0, reported: 0, details: [] };
  let lost = false;
  let renewedAt = Date.now();
  const renew = async (): Promise<void> => {
    renewedAt = Date.now();
    if (!(await leases.tryAcquire(job, ttlMs))) lost = true;
  };
  const heartbeat = setInterval(
    () =>
      void renew().catch((error) =>
        deps.logger.warn(`job ${job}: lease renewal failed: ${describeError(error)}`),
      ),
    Math.max(500, Math.floor(ttlMs / 3)),
  );
  heartbeat.unref();
  const context: JobContext = {
    dryRun: deps.dryRun,
    summary,
    note: (detail) => {
      if (summary.details.length < MAX_DETAILS) summary.details.push(detail);
    },
    checkpoint: async () => {
      if (deps.stopping()) throw new Error('the instance is shutting down');
      if (Date.now() - renewedAt >= CHECKPOINT_EVERY_MS) {
        await renew();
        await store.saveSummary(id, summary);
      }
      if (lost) throw new Error('the run lost its lease to another instance');
    },
  };
  return { summary, context, stop: () => clearInterval(heartbeat) };
}

/** The log line of a run's end: how long it took and its counts, or its error. */
export function logRunEnd(
  logger: Logger,
  job: string,
  holder: string,
  run: { took: number; dryRun: boolean; summary: JobSummary; error: string | null },
): void {
  const { took, dryRun, summary, error } = run;
  const counts = `examined ${summary.examined}, changed ${summary.changed}, reported ${summary.reported}`;
  if (error === null) {
    logger.log(`job ${job} ran on ${holder} in ${took} ms${dryRun ? ' (dry run)' : ''}: ${counts}`);
  } else {
    logger.error(`job ${job} failed on ${holder} after ${took} ms: ${error}`);
  }
}
