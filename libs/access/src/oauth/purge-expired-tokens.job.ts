import { Injectable } from '@nestjs/common';
import { deleteInBatches, JobContext, MaintenanceJob } from '@dam/jobs';
import { TokensService } from './tokens.service';

/** Expired tokens stay this long: a revoked refresh token presented again must still be recognised as reuse. */
const KEEP_AFTER_EXPIRY_MS = 24 * 3_600_000;
/** Tokens deleted per statement; the run checkpoints between batches. */
const BATCH = 1000;

/**
 * `purge-expired-tokens`: deletes access and refresh tokens, revoked or not, that expired more than a
 * day ago (kept that long for refresh-reuse detection). Never deletes a token before its expiry, nor
 * users or clients. A dry run counts them.
 */
@Injectable()
export class PurgeExpiredTokensJob extends MaintenanceJob {
  readonly name = 'purge-expired-tokens';
  readonly defaultCron = '15 * * * *';
  readonly description = 'Deletes OAuth tokens (revoked or not) that expired more than a day ago';

  constructor(private readonly tokens: TokensService) {
    super();
  }

  async run(context: JobContext): Promise<void> {
    const before = new Date(Date.now() - KEEP_AFTER_EXPIRY_MS);
    if (context.dryRun) {
      const expired = await this.tokens.countExpired(before);
      context.summary.examined += expired;
      context.summary.reported += expired;
      context.note(`${expired} tokens expired before ${before.toISOString()} would be deleted`);
      return;
    }
    const deleted = await deleteInBatches(context, BATCH, (limit) =>
      this.tokens.deleteExpiredBatch(before, limit),
    );
    context.note(`deleted ${deleted} tokens expired before ${before.toISOString()}`);
  }
}
