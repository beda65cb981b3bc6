import { Injectable } from '@nestjs/common';
import { ExpiryPurgeJob } from '@dam/jobs';
import { TrashService } from './trash.service';

/**
 * `purge-trash`: purges the trashed assets kept longer than DAM_TRASH_RETENTION_DAYS (their `purgeAt`
 * passed): rows gone, objects queued in the object-deletion queue. Hourly unless DAM_JOB_PURGE_TRASH_CRON.
 */
@Injectable()
export class PurgeTrashJob extends ExpiryPurgeJob {
  readonly name = 'purge-trash';
  override readonly defaultCron: string = '23 * * * *';
  readonly description =
    'purges trashed assets past DAM_TRASH_RETENTION_DAYS, queueing their files for deletion';
  protected readonly itemName = 'trashed asset';

  constructor(trash: TrashService) {
    super(
      {
        removableIds: (now, limit) => trash.removableIds(now, limit),
        purge: (now, hooks) => trash.purgeExpired(now, hooks),
      },
      undefined,
    );
  }
}
