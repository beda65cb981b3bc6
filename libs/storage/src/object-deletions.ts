import { Injectable, Logger, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '@dam/core';
import { wholeSeconds } from '@dam/core';
import { LeaseService } from '@dam/jobs';
import { ObjectStorage } from './object-storage.port';

const TABLE = 'object_deletions';
const JOB = 'object-deletions';
/** Rows handled per batch of a run. */
const BATCH = 100;
/** Delay before the first retry of a failed delete; doubles with each attempt, up to MAX_DELAY_MS. */
const FIRST_RETRY_MS = 10_000;
const MAX_DELAY_MS = 3_600_000;
/** At most this many keys per row-insert statement (well below every driver's parameter limit). */
const INSERT_CHUNK = 200;

interface QueuedRow {
  id: number;
  storage_key: string;
  attempts: number;
}

/**
 * The retryable cleanup of storage objects no row points at any more (replaced contents, renditions).
 * The owner of the rows that pointed at them calls `enqueue(manager, keys)` inside the transaction that
 * makes them obsolete, so the queue commits (or rolls back) with the change; after the commit,
 * `deleteSoon(keys)` tries at once, off the request's path. Whatever fails stays queued: the `run` job
 * (every DAM_OBJECT_DELETION_INTERVAL_SECONDS, on one instance, under a lease) retries due rows with a
 * delay that doubles per attempt. A row goes only once its object is gone, so no key is ever lost.
 */
@Injectable()
export class ObjectDeletions implements OnApplicationBootstrap {
  private readonly logger = new Logger('ObjectDeletions');
  private readonly periodMs: number;
  /** Immediate attempts still running (tests and shutdown wait for them with `settled()`). */
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly storage: ObjectStorage,
    private readonly leases: LeaseService,
    config: AppConfig,
    @Optional() private readonly schedules?: SchedulerRegistry,
  ) {
    this.periodMs = config.objectDeletionIntervalSeconds * 1000;
  }

  onApplicationBootstrap(): void {
    if (this.schedules === undefined || this.schedules.doesExist('interval', JOB)) return;
    this.schedules.addInterval(
      JOB,
      setInterval(() => void this.runExclusive(), this.periodMs),
    );
  }

  /** Queues `keys` for deletion, in the caller's transaction. */
  async enqueue(manager: EntityManager, keys: string[], now = new Date()): Promise<void> {
    const unique = [...new Set(keys)];
    for (let i = 0; i < unique.length; i += INSERT_CHUNK) {
      await manager
        .createQueryBuilder()
        .insert()
        // Named: without an entity, TypeORM leaves the column list out of a multi-row insert.
        .into(TABLE, ['storage_key', 'not_before', 'attempts', 'last_error', 'created_at'])
        .values(
          unique.slice(i, i + INSERT_CHUNK).map((key) => ({
            storage_key: key,
            not_before: wholeSeconds(now),
            attempts: 0,
            last_error: null,
            created_at: now,
          })),
        )
        .execute();
    }
  }

  /**
   * After the commit that queued `keys`: deletes them in the background, now. Returns at once; a failure
   * is recorded on the row for the job to retry.
   */
  deleteSoon(keys: string[]): void {
    if (keys.length === 0) return;
    this.track(this.deleteQueued(keys), keys);
  }

  /**
   * For objects no committed row points at (the partial or orphaned object of a failed upload): queues
   * them and deletes them in the background, so a failing or hung store does not hold the failed request
   * any longer. Without a database to queue in, it still tries once.
   */
  discardSoon(keys: string[]): void {
    if (keys.length === 0) return;
    const discard = async (): Promise<void> => {
      try {
        await this.enqueue(this.dataSource.manager, keys);
      } catch (error) {
        this.logger.warn(`could not queue ${keys.join(', ')} for deletion, trying once: ${describe(error)}`);
        for (const key of keys) await this.storage.delete(key);
        return;
      }
      await this.deleteQueued(keys);
    };
    this.track(discard(), keys);
  }

  /** Resolves once the immediate attempts started so far are over. */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** The scheduled run: on one instance per period. */
  async runExclusive(): Promise<boolean> {
    return this.leases.runExclusive(JOB, this.periodMs, async () => {
      await this.runDue(new Date());
    });
  }

  /** Deletes the objects of every row due at `now`; returns how many were deleted. */
  async runDue(now: Date): Promise<number> {
    let deleted = 0;
    let afterId = 0;
    for (;;) {
      const rows: QueuedRow[] = await this.dataSource
        .createQueryBuilder()
        .select(['id', 'storage_key', 'attempts'])
        .from(TABLE, 'd')
        .where('d.not_before <= :now AND d.id > :afterId', { now, afterId })
        .orderBy('d.id', 'ASC')
        .limit(BATCH)
        .getRawMany();
      for (const row of rows) {
        if (await this.deleteRow({ ...row, id: Number(row.id), attempts: Number(row.attempts) }, now))
          deleted += 1;
      }
      if (rows.length < BATCH) break;
      afterId = Number(rows[rows.length - 1].id);
    }
    if (deleted > 0) this.logger.log(`deleted ${deleted} queued objects`);
    return deleted;
  }

  /** How many deletions are queued (for tests and operators). */
  async pending(): Promise<{ key: string; attempts: number; lastError: string | null }[]> {
    const rows: { storage_key: string; attempts: number | string; last_error: string | null }[] =
      await this.dataSource
        .createQueryBuilder()
        .select(['storage_key', 'attempts', 'last_error'])
        .from(TABLE, 'd')
        .orderBy('d.id', 'ASC')
        .getRawMany();
    return rows.map((row) => ({
      key: row.storage_key,
      attempts: Number(row.attempts),
      lastError: row.last_error,
    }));
  }

  private track(attempt: Promise<void>, keys: string[]): void {
    const tracked: Promise<void> = attempt
      .catch((error: unknown) => {
        this.logger.warn(`could not delete ${keys.length} obsolete objects now: ${describe(error)}`);
      })
      .finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
  }

  private async deleteQueued(keys: string[]): Promise<void> {
    const rows: QueuedRow[] = await this.dataSource
      .createQueryBuilder()
      .select(['id', 'storage_key', 'attempts'])
      .from(TABLE, 'd')
      .where('d.storage_key IN (:...keys)', { keys })
      .getRawMany();
    const now = new Date();
    for (const row of rows)
      await this.deleteRow({ ...row, id: Number(row.id), attempts: Number(row.attempts) }, now);
  }

  /** Deletes the object, then its row; on failure records the error and the time of the next attempt. */
  private async deleteRow(row: QueuedRow, now: Date): Promise<boolean> {
    try {
      await this.storage.delete(row.storage_key);
    } catch (error) {
      const attempts = row.attempts + 1;
      const delay = Math.min(MAX_DELAY_MS, FIRST_RETRY_MS * 2 ** Math.min(attempts - 1, 20));
      await this.dataSource
        .createQueryBuilder()
        .update(TABLE)
        .set({
          attempts,
          not_before: wholeSeconds(new Date(now.getTime() + delay)),
          last_error: describe(error).slice(0, 500),
        })
        .where('id = :id', { id: row.id })
        .execute();
      this.logger.warn(
        `could not delete ${row.storage_key} (attempt ${attempts}, next in ${Math.round(delay / 1000)} s): ${describe(error)}`,
      );
      return false;
    }
    await this.dataSource
      .createQueryBuilder()
      .delete()
      .from(TABLE)
      .where('id = :id', { id: row.id })
      .execute();
    return true;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
