import { Injectable } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { LeaseService } from '@dam/platform';
import { TempChunkedFilesService } from './temp-chunked-files.service';

const EVERY_TEN_MINUTES = 10 * 60_000;

/** Every 10 minutes, on one instance among those sharing the database: purge stale temp chunked files. */
@Injectable()
export class TempFilePurgeJob {
  constructor(
    private readonly leases: LeaseService,
    private readonly files: TempChunkedFilesService,
  ) {}

  @Interval(EVERY_TEN_MINUTES)
  async run(): Promise<boolean> {
    return this.leases.runExclusive('temp-file-purge', EVERY_TEN_MINUTES, async () => {
      await this.files.purgeStale(new Date());
    });
  }
}
