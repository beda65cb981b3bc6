import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { dateOfDatetime, wholeSeconds } from '@dam/core';
import type { JobSummary } from './maintenance-job';

const TABLE = 'job_runs';
/** The newest runs kept per job (older ones are deleted when a run of that job ends). */
export const JOB_RUNS_KEPT = 100;

export type JobRunStatus = 'queued' | 'running' | 'succeeded' | 'failed';
export const OPEN_STATUSES: JobRunStatus[] = ['queued', 'running'];

/** One run of a maintenance job, as recorded in `job_runs`. */
export interface JobRun {
  id: number;
  job: string;
  status: JobRunStatus;
  dryRun: boolean;
  trigger: 'schedule' | 'manual';
  /** The instance that ran (or runs) it (LeaseService.holder). */
  holder: string;
  queuedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  summary: JobSummary | null;
  error: string | null;
}

interface RawRun {
  id: number | string;
  job: string;
  status: JobRunStatus;
  dry_run: number | boolean | string;
  trigger_kind: 'schedule' | 'manual';
  holder: string;
  queued_at: Date | string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
  summary: string | null;
  error: string | null;
}

export interface LeaseRow {
  name: string;
  holder: string;
  expiresAt: Date;
}

/** All SQL on `job_runs` (and the reads of `job_leases` the runner needs to tell live runs from dead ones). */
@Injectable()
export class JobRunsStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A new run, `queued`. A scheduled run names its `slot`: a second insert of the slot fails (unique). */
  async insert(run: {
    job: string;
    dryRun: boolean;
    trigger: 'schedule' | 'manual';
    slot: string | null;
    holder: string;
    now: Date;
  }): Promise<number> {
    const result = await this.dataSource
      .createQueryBuilder()
      .insert()
      .into(TABLE)
      .values({
        job: run.job,
        status: 'queued',
        dry_run: run.dryRun,
        trigger_kind: run.trigger,
        slot: run.slot,
        holder: run.holder,
        queued_at: wholeSeconds(run.now),
        started_at: null,
        finished_at: null,
        summary: null,
        error: null,
      })
      .execute();
    const raw: unknown = result.raw;
    const id = typeof raw === 'object' && raw !== null ? (raw as { insertId?: unknown }).insertId : raw;
    return Number(id);
  }

  /** Whether a run of this scheduled moment exists already. */
  async slotTaken(slot: string): Promise<boolean> {
    return (await this.count('r.slot = :slot', { slot })) > 0;
  }

  async markRunning(id: number, now: Date): Promise<void> {
    await this.dataSource
      .createQueryBuilder()
      .update(TABLE)
      .set({ status: 'running', started_at: wholeSeconds(now) })
      .where("id = :id AND status = 'queued'", { id })
      .execute();
  }

  /** The summary so far, while the run goes on. */
  async saveSummary(id: number, summary: JobSummary): Promise<void> {
    await this.dataSource
      .createQueryBuilder()
      .update(TABLE)
      .set({ summary: JSON.stringify(summary) })
      .where('id = :id', { id })
      .execute();
  }

  /** Ends an open run; a run already ended (failed as dead by another instance) stays as it is. */
  async finish(
    id: number,
    outcome: { status: 'succeeded' | 'failed'; summary: JobSummary; error: string | null; now: Date },
  ): Promise<void> {
    await this.dataSource
      .createQueryBuilder()
      .update(TABLE)
      .set({
        status: outcome.status,
        summary: JSON.stringify(outcome.summary),
        error: outcome.error === null ? null : outcome.error.slice(0, 1000),
        finished_at: wholeSeconds(outcome.now),
      })
      .where('id = :id AND status IN (:...open)', { id, open: OPEN_STATUSES })
      .execute();
  }

  /** Fails open runs (their instance stopped). */
  async fail(ids: number[], error: string, now: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.dataSource
      .createQueryBuilder()
      .update(TABLE)
      .set({ status: 'failed', error, finished_at: wholeSeconds(now) })
      .where('id IN (:...ids) AND status IN (:...open)', { ids, open: OPEN_STATUSES })
      .execute();
  }

  async get(job: string, id: number): Promise<JobRun | undefined> {
    const row = await this.select().where('r.job = :job AND r.id = :id', { job, id }).getRawOne<RawRun>();
    return row === undefined ? undefined : toRun(row);
  }

  /** Newest first. */
  async page(job: string, offset: number, limit: number): Promise<{ runs: JobRun[]; total: number }> {
    const [rows, total] = await Promise.all([
      this.select()
        .where('r.job = :job', { job })
        .orderBy('id', 'DESC')
        .offset(offset)
        .limit(limit)
        .getRawMany<RawRun>(),
      this.count('r.job = :job', { job }),
    ]);
    return { runs: rows.map(toRun), total };
  }

  /** The newest run of each of `jobs`. */
  async latest(jobs: string[]): Promise<Map<string, JobRun>> {
    const latest = new Map<string, JobRun>();
    if (jobs.length === 0) return latest;
    const ids = await this.dataSource
      .createQueryBuilder()
      .select('MAX(r.id)', 'id')
      .from(TABLE, 'r')
      .where('r.job IN (:...jobs)', { jobs })
      .groupBy('r.job')
      .getRawMany<{ id: number | string }>();
    if (ids.length === 0) return latest;
    const rows = await this.select()
      .where('r.id IN (:...ids)', { ids: ids.map((row) => Number(row.id)) })
      .getRawMany<RawRun>();
    for (const row of rows) latest.set(row.job, toRun(row));
    return latest;
  }

  /** When the newest successful run of each of `jobs` ended (jobs never run successfully are absent). */
  async lastSucceeded(jobs: string[]): Promise<Map<string, Date>> {
    const ended = new Map<string, Date>();
    if (jobs.length === 0) return ended;
    const rows = await this.dataSource
      .createQueryBuilder()
      .select(['r.job AS job', 'MAX(r.finished_at) AS finished_at'])
      .from(TABLE, 'r')
      .where("r.job IN (:...jobs) AND r.status = 'succeeded'", { jobs })
      .groupBy('r.job')
      .getRawMany<{ job: string; finished_at: Date | string | null }>();
    for (const row of rows) if (row.finished_at !== null) ended.set(row.job, dateOfDatetime(row.finished_at));
    return ended;
  }

  /** Runs still queued or running (of `job`, or of every job). */
  async open(job?: string): Promise<JobRun[]> {
    const query = this.select().where('r.status IN (:...open)', { open: OPEN_STATUSES });
    if (job !== undefined) query.andWhere('r.job = :job', { job });
    return (await query.getRawMany<RawRun>()).map(toRun);
  }

  async leases(names: string[]): Promise<Map<string, LeaseRow>> {
    const leases = new Map<string, LeaseRow>();
    if (names.length === 0) return leases;
    const rows = await this.dataSource
      .createQueryBuilder()
      .select(['l.name AS name', 'l.holder AS holder', 'l.expires_at AS expires_at'])
      .from('job_leases', 'l')
      .where('l.name IN (:...names)', { names })
      .getRawMany<{ name: string; holder: string; expires_at: Date | string }>();
    for (const row of rows) {
      leases.set(row.name, { name: row.name, holder: row.holder, expiresAt: dateOfDatetime(row.expires_at) });
    }
    return leases;
  }

  /** Keeps the newest `keep` runs of `job` (never deleting an open one). */
  async prune(job: string, keep = JOB_RUNS_KEPT): Promise<void> {
    const boundary = await this.dataSource
      .createQueryBuilder()
      .select('r.id', 'id')
      .from(TABLE, 'r')
      .where('r.job = :job', { job })
      .orderBy('r.id', 'DESC')
      .offset(keep - 1)
      .limit(1)
      .getRawOne<{ id: number | string }>();
    if (boundary === undefined) return;
    await this.dataSource
      .createQueryBuilder()
      .delete()
      .from(TABLE)
      .where('job = :job AND id < :id AND status NOT IN (:...open)', {
        job,
        id: Number(boundary.id),
        open: OPEN_STATUSES,
      })
      .execute();
  }

  private async count(where: string, parameters: Record<string, unknown>): Promise<number> {
    const row = await this.dataSource
      .createQueryBuilder()
      .select('COUNT(*)', 'count')
      .from(TABLE, 'r')
      .where(where, parameters)
      .getRawOne<{ count: number | string }>();
    return Number(row?.count ?? 0);
  }

  private select() {
    return this.dataSource
      .createQueryBuilder()
      .select([
        'r.id AS id',
        'r.job AS job',
        'r.status AS status',
        'r.dry_run AS dry_run',
        'r.trigger_kind AS trigger_kind',
        'r.holder AS holder',
        'r.queued_at AS queued_at',
        'r.started_at AS started_at',
        'r.finished_at AS finished_at',
        'r.summary AS summary',
        'r.error AS error',
      ])
      .from(TABLE, 'r');
  }
}

function toRun(row: RawRun): JobRun {
  return {
    id: Number(row.id),
    job: row.job,
    status: row.status,
    dryRun: row.dry_run === true || Number(row.dry_run) === 1,
    trigger: row.trigger_kind,
    holder: row.holder,
    queuedAt: dateOfDatetime(row.queued_at),
    startedAt: row.started_at === null ? null : dateOfDatetime(row.started_at),
    finishedAt: row.finished_at === null ? null : dateOfDatetime(row.finished_at),
    summary: row.summary === null ? null : (JSON.parse(row.summary) as JobSummary),
    error: row.error,
  };
}
