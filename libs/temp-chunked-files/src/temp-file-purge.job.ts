import { Injectable, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { AppConfig, LeaseService } from '@dam/platform';
import { TempChunkedFilesService } from './temp-chunked-files.service';

const JOB = 'temp-file-purge';

/**
 * Every DAM_TEMP_FILE_PURGE_INTERVAL_SECONDS (10 minutes by default), on one instance among those sharing
 * the database: purge stale temp chunked files. The period is configured, so the interval is registered
 * with @nestjs/schedule's SchedulerRegistry at boot (which clears it at shutdown) rather than declared with
 * `@Interval`. The lease lasts one period, so the other instances, whose timers fire at other moments of
 * that period, skip it.
 */
@Injectable()
export class TempFilePurgeJob implements OnApplicationBootstrap {
  private readonly periodMs: number;

  constructor(
    private readonly leases: LeaseService,
    private readonly files: TempChunkedFilesService,
    config: AppConfig,
    /** Absent only when a test builds the job by hand to call `run()`. */
    @Optional() private readonly schedules?: SchedulerRegistry,
  ) {
    this.periodMs = config.tempFilePurgeIntervalSeconds * 1000;
  }

  onApplicationBootstrap(): void {
    if (this.schedules === undefined || this.schedules.doesExist('interval', JOB)) return;
    this.schedules.addInterval(
      JOB,
      setInterval(() => void this.run(), this.periodMs),
    );
  }

  async run(): Promise<boolean> {
    return this.leases.runExclusive(JOB, this.periodMs, async () => {
      await this.files.purgeStale(new Date());
    });
  }
}
