import { Injectable } from '@nestjs/common';
import { AppConfig } from '@dam/core';
import { ExpiryPurgeJob } from '@dam/jobs';
import { TempChunkedFilesService } from './temp-chunked-files.service';

/**
 * `purge-temp-files`: removes temp chunked files untouched for DAM_TEMP_FILE_TTL_HOURS, with their objects,
 * and the objects of temp files whose row is gone. Never touches a file touched within the TTL. Scheduled
 * by the platform's JobRunner: every DAM_TEMP_FILE_PURGE_INTERVAL_SECONDS when that is set (and
 * DAM_JOB_PURGE_TEMP_FILES_CRON is not), else every ten minutes.
 */
@Injectable()
export class TempFilePurgeJob extends ExpiryPurgeJob {
  readonly name = 'purge-temp-files';
  readonly description =
    'removes temp chunked files untouched for DAM_TEMP_FILE_TTL_HOURS, with their objects';
  protected readonly itemName = 'temp file';

  constructor(files: TempChunkedFilesService, config: AppConfig) {
    super(
      {
        removableIds: (now, limit) => files.staleIds(now, limit),
        purge: (now, hooks) => files.purgeStale(now, hooks),
      },
      config.tempFilePurgeIntervalSeconds,
    );
  }
}
