import { Injectable } from '@nestjs/common';
import { AppConfig } from '@dam/core';
import { JobContext, MaintenanceJob } from '@dam/jobs';
import { ObjectStorage } from './object-storage.port';
import { ReferencedKeys, StoredObjectOwner, StoredObjectOwners } from './stored-object-owners';

/** Keys examined (and asked of their owner) per batch; the run checkpoints between batches. */
const BATCH = 200;
/** Objects stat'ed at once. */
const STAT_PARALLEL = 16;

/**
 * `sweep-orphan-objects`: deletes stored objects that no row refers to, once they are older than
 * DAM_ORPHAN_GRACE_HOURS (an upload writes its object before the row that refers to it commits), and
 * reports rows whose object is missing. Which rows refer to which keys is answered by the lib that owns
 * each key prefix (StoredObjectOwners); objects queued in `object_deletions` are not referenced by any
 * row, so they count as orphans too; objects a holder keeps (a trashed asset's files) do not. Never
 * deleted: an object some row refers to, an object younger than
 * the grace period, an object under no registered prefix (reported), and rows (a missing object is only
 * reported). Safe to run twice and to kill: every delete stands alone.
 */
@Injectable()
export class SweepOrphanObjectsJob extends MaintenanceJob {
  readonly name = 'sweep-orphan-objects';
  readonly defaultCron = '0 3 * * *';
  readonly description =
    'Deletes stored objects no row refers to (older than DAM_ORPHAN_GRACE_HOURS); reports rows whose object is missing';

  constructor(
    private readonly storage: ObjectStorage,
    private readonly owners: StoredObjectOwners,
    private readonly config: AppConfig,
  ) {
    super();
  }

  async run(context: JobContext): Promise<void> {
    const cutoff = Date.now() - this.config.orphanGraceHours * 3_600_000;
    let batch: string[] = [];
    for await (const key of this.storage.list('')) {
      batch.push(key);
      if (batch.length < BATCH) continue;
      await this.sweep(batch, cutoff, context);
      batch = [];
      await context.checkpoint();
    }
    if (batch.length > 0) await this.sweep(batch, cutoff, context);
    for (const owner of this.owners.all()) {
      await context.checkpoint();
      await this.reportMissing(owner, context);
    }
  }

  /** Deletes (or, on a dry run, lists) the objects of `keys` that are old enough and referred to by no row. */
  private async sweep(keys: string[], cutoff: number, context: JobContext): Promise<void> {
    const byOwner = new Map<string, { referenced: ReferencedKeys; keys: string[] }>();
    for (const key of keys) {
      context.summary.examined += 1;
      const owner = this.owners.ownerOf(key);
      if (owner === undefined) {
        context.summary.reported += 1;
        context.note(`under no registered prefix, kept: ${key}`);
        continue;
      }
      const entry = byOwner.get(owner.prefix) ?? { referenced: owner.referenced, keys: [] };
      entry.keys.push(key);
      byOwner.set(owner.prefix, entry);
    }
    for (const { referenced: referencedAmong, keys: owned } of byOwner.values()) {
      const stats = await mapLimited(owned, STAT_PARALLEL, (key) => this.storage.stat(key));
      // Gone meanwhile, or too young to judge: a row may be about to refer to it.
      const old = owned.filter((_, index) => {
        const stat = stats[index];
        return stat !== undefined && stat.lastModified.getTime() <= cutoff;
      });
      if (old.length === 0) continue;
      const referenced = await this.owners.kept(old, referencedAmong);
      for (const key of old) {
        if (referenced.has(key)) continue;
        if (context.dryRun) {
          context.summary.reported += 1;
          context.note(`orphan, would delete: ${key}`);
        } else {
          await this.storage.delete(key);
          context.summary.changed += 1;
          context.note(`orphan, deleted: ${key}`);
        }
      }
    }
  }

  /** Reports the keys `owner`'s rows refer to whose object is missing (never deletes the rows). */
  private async reportMissing(owner: StoredObjectOwner, context: JobContext): Promise<void> {
    if (owner.keys === undefined) return;
    let batch: string[] = [];
    const check = async (): Promise<void> => {
      const stats = await mapLimited(batch, STAT_PARALLEL, (key) => this.storage.stat(key));
      batch.forEach((key, index) => {
        context.summary.examined += 1;
        if (stats[index] !== undefined) return;
        context.summary.reported += 1;
        context.note(`missing object of a ${owner.prefix} row: ${key}`);
      });
      batch = [];
    };
    for await (const key of owner.keys()) {
      batch.push(key);
      if (batch.length < BATCH) continue;
      await check();
      await context.checkpoint();
    }
    if (batch.length > 0) await check();
  }
}

/** `fn` over `items`, at most `limit` at a time; results in the order of `items`. */
async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
