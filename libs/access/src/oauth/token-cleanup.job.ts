import { Injectable } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { LeaseService } from '@dam/platform';
import { TokensService } from './tokens.service';

/** Hourly removal of tokens that expired more than a day ago (kept a day for refresh-reuse detection). */
@Injectable()
export class TokenCleanupJob {
  constructor(
    private readonly leases: LeaseService,
    private readonly tokens: TokensService,
  ) {}

  @Cron(CronExpression.EVERY_HOUR)
  async run(): Promise<void> {
    await this.leases.runExclusive('oauth-token-cleanup', 10 * 60_000, async () => {
      await this.tokens.deleteExpired(new Date(Date.now() - 24 * 3600_000));
    });
  }
}
