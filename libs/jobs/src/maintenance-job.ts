import { Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
/**
 * A maintenance job (DESIGN §10): registered by the lib that owns what it maintains, scheduled and run by
 * the JobRunner (one instance per schedule through a lease, every run recorded in `job_runs`).
 * Jobs work in batches, call `checkpoint()` between batches (it renews the lease and stops a run whose
 * lease was lost), and are safe to run twice and to resume after being killed.
 */

/** What a run examined, changed and reported (the run's `summary`). */
export interface JobSummary {
  examined: number;
  changed: number;
  reported: number;
  /** Up to a hundred lines naming what was changed or reported (keys, ids, reasons). */
  details: string[];
}

export interface JobContext {
  /** When true the job changes nothing: it only examines and reports what it would change. */
  readonly dryRun: boolean;
  readonly summary: JobSummary;
  /** Adds a line to `summary.details` (kept to the first hundred). */
  note(detail: string): void;
  /** Renews the lease; throws when the run must stop (lease lost, shutting down). */
  checkpoint(): Promise<void>;
}

export abstract class MaintenanceJob {
  /** Kebab-case, unique: `purge-temp-files`, `sweep-orphan-objects`, ... */
  abstract readonly name: string;
  /** Cron expression used unless DAM_JOB_<NAME>_CRON sets another one (or `off`). */
  abstract readonly defaultCron: string;
  /** One line for `GET /rest/admin/jobs` and `jobs:list`. */
  abstract readonly description: string;
  /**
   * A fixed period in seconds used instead of defaultCron when set (DAM_JOB_<NAME>_CRON still wins):
   * `purge-temp-files` keeps DAM_TEMP_FILE_PURGE_INTERVAL_SECONDS working this way.
   */
  readonly intervalSeconds?: number;
  abstract run(context: JobContext): Promise<void>;
}

/**
 * Every maintenance job of the application: each provider that extends MaintenanceJob is found at module
 * init (Nest's DiscoveryService), so an owner only lists its job among its module's providers. Tests may
 * `register` more. The runner schedules them at application bootstrap.
 */
@Injectable()
export class JobRegistry implements OnModuleInit {
  private readonly jobs = new Map<string, MaintenanceJob>();

  constructor(private readonly discovery: DiscoveryService) {}

  onModuleInit(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const instance: unknown = wrapper.instance;
      if (instance instanceof MaintenanceJob && this.jobs.get(instance.name) !== instance)
        this.register(instance);
    }
  }

  register(job: MaintenanceJob): void {
    if (this.jobs.has(job.name)) throw new Error(`job ${job.name} is registered twice`);
    this.jobs.set(job.name, job);
  }

  get(name: string): MaintenanceJob | undefined {
    return this.jobs.get(name);
  }

  all(): MaintenanceJob[] {
    return [...this.jobs.values()].sort((a, b) => a.name.localeCompare(b.name));
  }
}
