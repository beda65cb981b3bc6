import { Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { AppConfig, LeaseService } from '@dam/platform';
import { TempChunkedFilesService } from './temp-chunked-files.service';

/**
 * Every DAM_TEMP_FILE_PURGE_INTERVAL_SECONDS (10 minutes by default), on one instance among those sharing
 * the database: purge stale temp chunked files. The lease lasts one period, so the other instances, whose
 * timers fire at other moments of that period, skip it.
 */
@Injectable()
export class TempFilePurgeJob implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly periodMs: number;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly leases: LeaseService,
    private readonly files: TempChunkedFilesService,
    config: AppConfig,
  ) {
    this.periodMs = config.tempFilePurgeIntervalSeconds * 1000;
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.run(), this.periodMs);
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  async run(): Promise<boolean> {
    return this.leases.runExclusive('temp-file-purge', this.periodMs, async () => {
      await this.files.purgeStale(new Date());
    });
  }
}
