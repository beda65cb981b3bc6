import { Injectable } from '@nestjs/common';
import { AppConfig, JobContext, MaintenanceJob } from '@dam/platform';
import { TusService } from './tus.service';

/** The most uploads a dry run lists. */
const DRY_RUN_LIMIT = 1000;

/**
 * `purge-tus-uploads`: removes tus uploads created more than DAM_TEMP_FILE_TTL_HOURS ago and not finished
 * (tus answers 410 for them already), finished ones a crash left behind, and `tus/` objects whose upload
 * row is gone. Scheduled like `purge-temp-files`: every DAM_TEMP_FILE_PURGE_INTERVAL_SECONDS when set, else
 * every ten minutes.
 */
@Injectable()
export class TusPurgeJob extends MaintenanceJob {
  readonly name = 'purge-tus-uploads';
  readonly defaultCron = '*/10 * * * *';
  readonly description =
    'removes tus uploads older than DAM_TEMP_FILE_TTL_HOURS (and finished ones left behind), with their objects';
  override readonly intervalSeconds: number | undefined;

  constructor(
    private readonly uploads: TusService,
    config: AppConfig,
  ) {
    super();
    this.intervalSeconds = config.tempFilePurgeIntervalSeconds;
  }

  async run(context: JobContext): Promise<void> {
    const now = new Date();
    if (context.dryRun) {
      const ids = await this.uploads.removableIds(now, DRY_RUN_LIMIT);
      context.summary.examined = ids.length;
      context.summary.reported = ids.length;
      for (const id of ids) context.note(`would remove tus upload ${id}`);
      return;
    }
    const removed = await this.uploads.purge(now, {
      checkpoint: () => context.checkpoint(),
      removed: (id) => context.note(`removed tus upload ${id}`),
    });
    context.summary.examined = removed;
    context.summary.changed = removed;
  }
}
