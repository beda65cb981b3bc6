import { Injectable } from '@nestjs/common';
import { ExpiryPurgeJob } from '@dam/jobs';
import { SharesService } from './shares.service';

/**
 * `purge-expired-shares`: deletes the shares whose `expiresAt` passed (revoked or not), with their
 * items; their links already answered 404. Hourly unless DAM_JOB_PURGE_EXPIRED_SHARES_CRON.
 */
@Injectable()
export class PurgeExpiredSharesJob extends ExpiryPurgeJob {
  readonly name = 'purge-expired-shares';
  override readonly defaultCron: string = '41 * * * *';
  readonly description = 'deletes shares whose expiresAt passed, with their items';
  protected readonly itemName = 'share';

  constructor(shares: SharesService) {
    super(
      {
        removableIds: (now, limit) => shares.removableIds(now, limit),
        purge: (now, hooks) => shares.purgeExpired(now, hooks),
      },
      undefined,
    );
  }
}
