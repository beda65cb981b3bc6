/** How a run ended, as the runner tells its observer. */
export interface JobRunOutcome {
  status: 'succeeded' | 'failed';
  dryRun: boolean;
  startedAt: Date;
  finishedAt: Date;
}

/**
 * Told by the JobRunner about the jobs and their runs (the metrics implement it). Optional: without one
 * bound (the CLI), the runner tells nobody. Calls never throw into the runner.
 */
export abstract class JobRunObserver {
  /** At bootstrap: every registered job, and the end of its newest successful run where there is one. */
  abstract jobsKnown(jobs: string[], lastSuccesses: Map<string, Date>): void;
  /** A run of `job` ended in this instance. */
  abstract runEnded(job: string, outcome: JobRunOutcome): void;
}
