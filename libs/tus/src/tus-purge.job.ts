import { Injectable } from '@nestjs/common';
import { AppConfig } from '@dam/core';
import { ExpiryPurgeJob } from '@dam/jobs';
import { TusService } from './tus.service';

/**
 * `purge-tus-uploads`: removes tus uploads created more than DAM_TEMP_FILE_TTL_HOURS ago and not finished
 * (tus answers 410 for them already), finished ones a crash left behind, and `tus/` objects whose upload
 * row is gone. Scheduled like `purge-temp-files`: every DAM_TEMP_FILE_PURGE_INTERVAL_SECONDS when set, else
 * every ten minutes.
 */
@Injectable()
export class TusPurgeJob extends ExpiryPurgeJob {
  readonly name = 'purge-tus-uploads';
  readonly description =
    'removes tus uploads older than DAM_TEMP_FILE_TTL_HOURS (and finished ones left behind), with their objects';
  protected readonly itemName = 'tus upload';

  constructor(uploads: TusService, config: AppConfig) {
    super(uploads, config.tempFilePurgeIntervalSeconds);
  }
}
