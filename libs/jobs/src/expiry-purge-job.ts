import { MaintenanceJob, JobContext } from './maintenance-job';

/** Optional hooks of a purge: the maintenance job's checkpoint between batches, and each removed item. */
export interface PurgeHooks {
  checkpoint?(): Promise<void>;
  removed?(id: string): void;
}

/** What an owner of expiring uploads offers its purge job. */
export interface ExpiringItems {
  /** Ids a purge at `now` would remove, at most `limit` (the dry run lists them). */
  removableIds(now: Date, limit: number): Promise<string[]>;
  /** Removes them, with their objects; returns how many. */
  purge(now: Date, hooks: PurgeHooks): Promise<number>;
}

/** The most items a dry run lists. */
const DRY_RUN_LIMIT = 1000;

/**
 * A job that removes expired uploads of one kind (temp chunked files, tus uploads): a dry run lists what
 * would go, a real run purges in batches with a checkpoint between them. Every ten minutes unless
 * DAM_TEMP_FILE_PURGE_INTERVAL_SECONDS (or the job's own DAM_JOB_<NAME>_CRON) says otherwise.
 */
export abstract class ExpiryPurgeJob extends MaintenanceJob {
  readonly defaultCron: string = '*/10 * * * *';
  /** What one item is called in the run's notes ("temp file", "tus upload"). */
  protected abstract readonly itemName: string;

  constructor(
    private readonly items: ExpiringItems,
    override readonly intervalSeconds: number | undefined,
  ) {
    super();
  }

  async run(context: JobContext): Promise<void> {
    const now = new Date();
    if (context.dryRun) {
      const ids = await this.items.removableIds(now, DRY_RUN_LIMIT);
      context.summary.examined = ids.length;
      context.summary.reported = ids.length;
      for (const id of ids) context.note(`would remove ${this.itemName} ${id}`);
      return;
    }
    const removed = await this.items.purge(now, {
      checkpoint: () => context.checkpoint(),
      removed: (id) => context.note(`removed ${this.itemName} ${id}`),
    });
    context.summary.examined = removed;
    context.summary.changed = removed;
  }
}
