import { DomainEvents } from '@dam/events';
import { UrlService } from '@dam/http';
import { JobContext, MaintenanceJob } from '@dam/jobs';
import { RightsExpired } from './rights-expiry.events';
import { RightsRepository } from './rights.repository';

const BATCH = 100;

/**
 * `expire-rights` (a platform MaintenanceJob, found among the providers by JobRegistry, scheduled and
 * recorded by JobRunner): marks the assets whose rights ended and records `rights.expired` for each, in
 * the same transaction, so webhooks deliver it. Safe to run twice and to resume. Built by a factory in
 * RightsExpiryModule (its schedule comes from the module's options).
 */
export class ExpireRightsJob extends MaintenanceJob {
  readonly name = 'expire-rights';
  readonly description = 'marks assets whose usage rights ended, and tells (event rights.expired)';

  constructor(
    private readonly rights: RightsRepository,
    private readonly events: DomainEvents,
    private readonly urls: UrlService,
    readonly defaultCron: string,
  ) {
    super();
  }

  async run(context: JobContext): Promise<void> {
    const now = new Date();
    let after = 0;
    for (;;) {
      const due = await this.rights.due(now, after, BATCH);
      if (due.length === 0) return;
      for (const assetId of due) {
        context.summary.examined += 1;
        after = assetId;
        if (context.dryRun) {
          context.note(`asset ${assetId} would expire`);
          continue;
        }
        const changed = await this.rights.transaction(async (manager) => {
          if (!(await this.rights.markExpired(manager, assetId, now))) return false;
          await this.events.record(
            manager,
            new RightsExpired({
              assetId,
              assetUrl: this.urls.configured().rest('assets', assetId),
              expiredAt: now.toISOString(),
              actorId: null,
              actorUrl: null,
            }),
          );
          return true;
        });
        if (changed) {
          context.summary.changed += 1;
          context.note(`asset ${assetId} expired`);
        }
      }
      await context.checkpoint();
    }
  }
}
