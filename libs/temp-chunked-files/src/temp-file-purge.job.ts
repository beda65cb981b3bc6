import { Injectable } from '@nestjs/common';
import { AppConfig, JobContext, MaintenanceJob } from '@dam/platform';
import { TempChunkedFilesService } from './temp-chunked-files.service';

/** The most stale files a dry run lists. */
const DRY_RUN_LIMIT = 1000;

/**
 * `purge-temp-files`: removes temp chunked files untouched for DAM_TEMP_FILE_TTL_HOURS, with their objects,
 * and the objects of temp files whose row is gone. Never touches a file touched within the TTL. Scheduled
 * by the platform's JobRunner: every DAM_TEMP_FILE_PURGE_INTERVAL_SECONDS when that is set (and
 * DAM_JOB_PURGE_TEMP_FILES_CRON is not), else every ten minutes.
 */
@Injectable()
export class TempFilePurgeJob extends MaintenanceJob {
  readonly name = 'purge-temp-files';
  readonly defaultCron = '*/10 * * * *';
  readonly description =
    'removes temp chunked files untouched for DAM_TEMP_FILE_TTL_HOURS, with their objects';
  override readonly intervalSeconds: number | undefined;

  constructor(
    private readonly files: TempChunkedFilesService,
    config: AppConfig,
  ) {
    super();
    this.intervalSeconds = config.tempFilePurgeIntervalSeconds;
  }

  async run(context: JobContext): Promise<void> {
    const now = new Date();
    if (context.dryRun) {
      const stale = await this.files.staleIds(now, DRY_RUN_LIMIT);
      context.summary.examined = stale.length;
      context.summary.reported = stale.length;
      for (const id of stale) context.note(`would remove temp file ${id}`);
      return;
    }
    const removed = await this.files.purgeStale(now, {
      checkpoint: () => context.checkpoint(),
      removed: (id) => context.note(`removed temp file ${id}`),
    });
    context.summary.examined = removed;
    context.summary.changed = removed;
  }
}
