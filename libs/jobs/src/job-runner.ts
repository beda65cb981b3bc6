import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  Optional,
} from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { AppConfig } from '@dam/core';
import { isUniqueViolation, withQueryDeadline } from '@dam/database';
import { describeError, JobAlreadyRunning, UnknownJob } from './job-errors';
import { JobRunObserver } from './job-observer';
import { JobRun, JobRunsStore } from './job-runs.store';
import { logRunEnd, openRunContext } from './job-run-context';
import { armSchedule } from './job-timers';
import { cronKey, describeSchedule, JobSchedule, nextMoment, resolveSchedule, slotOf } from './job-schedule';
import { LeaseService } from './lease.service';
import { JobRegistry, MaintenanceJob } from './maintenance-job';

/** The error recorded on a run whose instance died (or lost its lease) before it ended. */
export const DEAD_RUN_ERROR = 'the instance running it stopped';
/** The longest the runner waits at shutdown for its runs to reach a checkpoint and end. */
const SHUTDOWN_GRACE_MS = 5_000;

/** A job as `GET /rest/admin/jobs` and `jobs:list` show it. */
export interface JobStatus {
  name: string;
  description: string;
  /** The cron expression, `every N s`, or `off`. */
  schedule: string;
  /** On a schedule (not `off`). Instances with DAM_JOBS_ENABLED=false never run it by schedule. */
  enabled: boolean;
  /** Whether this instance runs scheduled jobs (DAM_JOBS_ENABLED). */
  scheduledHere: boolean;
  running: boolean;
  lastRun: JobRun | null;
  nextRunAt: Date | null;
}

/** A run that was started: its row as queued, and a promise of its row once it ended. */
export interface StartedRun {
  run: JobRun;
  done: Promise<JobRun>;
}

interface ActiveRun {
  id?: number;
  done?: Promise<unknown>;
  /**
   * The job's work is over: its row is being ended (or has been) and the lease released. Set before the
   * row is written, so that whoever sees the row ended and starts the job again waits for the release
   * rather than being refused (a client polling the run may read the row before this instance goes on).
   */
  ended?: boolean;
}

/** A scheduled moment was already run by another instance. */
class SlotTaken extends Error {}

/**
 * Schedules and runs every registered MaintenanceJob (DESIGN §10, README "Operating").
 *
 * - At bootstrap, each job is scheduled from DAM_JOB_<NAME>_CRON, its fixed period or its defaultCron
 *   (CronJob or an aligned timer, through @nestjs/schedule's SchedulerRegistry), unless DAM_JOBS_ENABLED
 *   is false here. Runs left open by dead instances are failed.
 * - A run (scheduled or manual) takes the job's lease (`job_leases`, the job's name, LeaseService) for
 *   DAM_JOB_LEASE_TTL_SECONDS, renewed while it goes on (a heartbeat, and `checkpoint()`), so one instance
 *   runs a job at a time; it is recorded in `job_runs` (queued → running → succeeded | failed) with its
 *   summary, and the lease is released when it ends.
 * - A scheduled run names its moment (`slot`, unique in `job_runs`): every instance's timer fires at that
 *   moment, one of them wins the lease and the row, the others skip, so a schedule runs once per moment.
 * - An open run whose lease expired or passed to another instance is failed ('the instance running it
 *   stopped') when noticed: at boot, when the jobs are listed, and before the next run of that job.
 * - The newest JOB_RUNS_KEPT (100) runs per job are kept.
 */
@Injectable()
export class JobRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Jobs');
  private readonly active = new Map<string, ActiveRun>();
  private readonly timers = new Map<string, () => void>();
  private readonly ttlMs: number;
  private shuttingDown = false;

  constructor(
    private readonly registry: JobRegistry,
    private readonly leases: LeaseService,
    private readonly store: JobRunsStore,
    private readonly config: AppConfig,
    @Optional() private readonly schedules?: SchedulerRegistry,
    @Optional() private readonly observer?: JobRunObserver,
  ) {
    this.ttlMs = config.jobLeaseTtlSeconds * 1000;
  }

  get holder(): string {
    return this.leases.holder;
  }

  async onApplicationBootstrap(): Promise<void> {
    const names = new Set(this.registry.all().map((job) => cronKey(job.name)));
    for (const key of Object.keys(this.config.jobCrons)) {
      if (!names.has(key))
        this.logger.warn(`DAM_JOB_${key}_CRON names no job (the jobs: ${[...names].join(', ')})`);
    }
    try {
      await this.reapDead();
    } catch (error) {
      this.logger.warn(`could not check for runs left open by stopped instances: ${describeError(error)}`);
    }
    for (const job of this.registry.all()) this.scheduleJob(job);
    await this.introduceJobs();
  }

  /** Tells the observer (metrics) the jobs and their newest successes, so its series start from the record. */
  private async introduceJobs(): Promise<void> {
    if (this.observer === undefined) return;
    const names = this.registry.all().map((job) => job.name);
    try {
      this.observer.jobsKnown(names, await this.store.lastSucceeded(names));
    } catch (error) {
      this.logger.warn(`could not read the newest successful runs: ${describeError(error)}`);
      this.observer.jobsKnown(names, new Map());
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.shuttingDown = true;
    for (const stop of this.timers.values()) stop();
    this.timers.clear();
    const going = [...this.active.values()].flatMap((run) => (run.done === undefined ? [] : [run.done]));
    if (going.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(going),
      new Promise((resolve) => (timer = setTimeout(resolve, SHUTDOWN_GRACE_MS))),
    ]);
    clearTimeout(timer);
  }

  scheduleOf(job: MaintenanceJob): JobSchedule {
    return resolveSchedule(job, this.config);
  }

  /** Every registered job with its schedule, whether it runs, its newest run and its next moment. */
  async list(): Promise<JobStatus[]> {
    await this.reapDead();
    const jobs = this.registry.all();
    const names = jobs.map((job) => job.name);
    const [latest, open] = await Promise.all([this.store.latest(names), this.store.open()]);
    return jobs.map((job) => {
      const schedule = this.scheduleOf(job);
      return {
        name: job.name,
        description: job.description,
        schedule: describeSchedule(schedule),
        enabled: schedule.kind !== 'off',
        scheduledHere: this.config.jobsEnabled,
        running: this.active.has(job.name) || open.some((run) => run.job === job.name),
        lastRun: latest.get(job.name) ?? null,
        nextRunAt: nextMoment(schedule, new Date()),
      };
    });
  }

  job(name: string): MaintenanceJob {
    const job = this.registry.get(name);
    if (job === undefined) throw new UnknownJob(name);
    return job;
  }

  /**
   * Starts a manual run (also where DAM_JOBS_ENABLED is false). Throws UnknownJob, or JobAlreadyRunning
   * while a run of the job goes on anywhere. Returns the queued run at once; `done` settles when it ends.
   */
  async trigger(name: string, dryRun: boolean): Promise<StartedRun> {
    return this.start(this.job(name), { dryRun, trigger: 'manual', slot: null });
  }

  /** The runs of a job, newest first. */
  async runs(name: string, offset: number, limit: number): Promise<{ runs: JobRun[]; total: number }> {
    this.job(name);
    await this.reapDead(name);
    return this.store.page(name, offset, limit);
  }

  async run(name: string, runId: number): Promise<JobRun | undefined> {
    this.job(name);
    await this.reapDead(name);
    return this.store.get(name, runId);
  }

  /** Fails the open runs (of `job`, or of every job) whose instance no longer holds the lease. */
  async reapDead(job?: string): Promise<void> {
    const candidates = (await this.store.open(job)).filter(
      (run) => !(run.holder === this.holder && this.active.get(run.job)?.id === run.id),
    );
    if (candidates.length === 0) return;
    const leases = await this.store.leases([...new Set(candidates.map((run) => run.job))]);
    const now = new Date();
    const dead = candidates.filter((run) => {
      const lease = leases.get(run.job);
      return lease === undefined || lease.holder !== run.holder || lease.expiresAt.getTime() <= now.getTime();
    });
    if (dead.length === 0) return;
    await this.store.fail(
      dead.map((run) => run.id),
      DEAD_RUN_ERROR,
      now,
    );
    for (const run of dead)
      this.logger.warn(`run ${run.id} of job ${run.job} failed: ${DEAD_RUN_ERROR} (${run.holder})`);
  }

  /**
   * Puts `job` on its schedule in this instance (unless DAM_JOBS_ENABLED is false here, or it is `off`).
   * Bootstrap does it for every registered job; a job registered later (tests) is scheduled by this.
   */
  scheduleJob(job: MaintenanceJob): void {
    const schedules = this.schedules;
    if (schedules === undefined || !this.config.jobsEnabled || this.shuttingDown) return;
    const schedule = this.scheduleOf(job);
    const key = `job:${job.name}`;
    if (schedule.kind === 'off') {
      this.logger.log(`job ${job.name} is off (${schedule.source})`);
      return;
    }
    this.timers.set(
      key,
      armSchedule(schedules, key, schedule, {
        fire: (moment) => void this.runScheduled(job.name, moment),
        stopping: () => this.shuttingDown,
      }),
    );
  }

  /**
   * What the schedule does at each of its moments (`now`, the moment the timer fired): runs the job unless
   * a run of it is going or another instance already ran this moment. Returns the ended run, or undefined
   * when this instance skipped the moment. Never throws.
   */
  async runScheduled(name: string, now = Date.now()): Promise<JobRun | undefined> {
    const job = this.job(name);
    if (this.shuttingDown) return undefined;
    const schedule = this.scheduleOf(job);
    const slot = `${job.name}@${new Date(slotOf(schedule, now)).toISOString()}`;
    try {
      return await (
        await this.start(job, { dryRun: false, trigger: 'schedule', slot })
      ).done;
    } catch (error) {
      if (error instanceof SlotTaken) return undefined;
      if (error instanceof JobAlreadyRunning) {
        this.logger.debug(`job ${job.name} skipped ${slot}: a run is still going`);
        return undefined;
      }
      this.logger.error(`job ${job.name} could not start: ${describeError(error)}`);
      return undefined;
    }
  }

  private async start(
    job: MaintenanceJob,
    options: { dryRun: boolean; trigger: 'schedule' | 'manual'; slot: string | null },
  ): Promise<StartedRun> {
    if (this.shuttingDown) throw new JobAlreadyRunning(job.name);
    const previous = this.active.get(job.name);
    // A run whose work is over is only recording its end and releasing its lease: wait for that rather
    // than refuse.
    if (previous?.ended === true) await previous.done?.catch(() => undefined);
    if (this.active.has(job.name)) throw new JobAlreadyRunning(job.name);
    const active: ActiveRun = {};
    this.active.set(job.name, active);
    let id: number;
    try {
      if (!(await this.acquire(job.name))) throw new JobAlreadyRunning(job.name);
      try {
        if (options.slot !== null && (await this.store.slotTaken(options.slot))) throw new SlotTaken();
        // With the lease ours, any other open run of this job is one whose instance stopped.
        const open = await this.store.open(job.name);
        await this.store.fail(
          open.map((run) => run.id),
          DEAD_RUN_ERROR,
          new Date(),
        );
        id = await this.store.insert({ job: job.name, ...options, holder: this.holder, now: new Date() });
      } catch (error) {
        await this.leases.release(job.name).catch(() => undefined);
        if (error instanceof SlotTaken) throw error;
        if (options.slot !== null && isUniqueViolation(error)) throw new SlotTaken();
        throw error;
      }
    } catch (error) {
      this.active.delete(job.name);
      throw error;
    }
    active.id = id;
    const queued = await this.store.get(job.name, id);
    const done = this.execute(job, id, options.dryRun);
    active.done = done;
    if (queued === undefined) throw new Error(`run ${id} of job ${job.name} vanished`);
    return { run: queued, done };
  }

  /**
   * The job's lease. When another instance holds it but no run of the job is open, that instance is
   * releasing it after a run's end (or the lease expires soon): retry a few times before refusing.
   */
  private async acquire(name: string): Promise<boolean> {
    for (let attempt = 0; ; attempt++) {
      if (await this.leases.tryAcquire(name, this.ttlMs)) return true;
      if (attempt >= 5 || (await this.store.open(name)).length > 0) return false;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  private async execute(job: MaintenanceJob, id: number, dryRun: boolean): Promise<JobRun> {
    const started = Date.now();
    const { summary, context, stop } = openRunContext({
      job: job.name,
      id,
      dryRun,
      ttlMs: this.ttlMs,
      leases: this.leases,
      store: this.store,
      logger: this.logger,
      stopping: () => this.shuttingDown,
    });
    let error: string | null = null;
    try {
      await this.store.markRunning(id, new Date());
      // Its statements may run for minutes at scale (a recount of a million assets): their own deadline.
      await withQueryDeadline(this.config.jobDatabaseTimeoutMs, () => job.run(context));
    } catch (failure) {
      error = describeError(failure);
    } finally {
      stop();
    }
    const status = error === null ? 'succeeded' : 'failed';
    const active = this.active.get(job.name);
    const finishedAt = new Date();
    // Before the row says so: whoever sees the run ended finds it counted.
    this.observer?.runEnded(job.name, { status, dryRun, startedAt: new Date(started), finishedAt });
    if (active !== undefined) active.ended = true;
    try {
      await this.store.finish(id, { status, summary, error, now: finishedAt });
      await this.store.prune(job.name);
    } catch (failure) {
      this.logger.error(`job ${job.name}: could not record the end of run ${id}: ${describeError(failure)}`);
    } finally {
      await this.leases.release(job.name).catch(() => undefined);
      this.active.delete(job.name);
    }
    logRunEnd(this.logger, job.name, this.holder, { took: Date.now() - started, dryRun, summary, error });
    const ended = await this.store.get(job.name, id).catch(() => undefined);
    return (
      ended ?? {
        id,
        job: job.name,
        status,
        dryRun,
        trigger: 'manual',
        holder: this.holder,
        queuedAt: new Date(started),
        startedAt: new Date(started),
        finishedAt: new Date(),
        summary,
        error,
      }
    );
  }
}
