import { Injectable } from '@nestjs/common';
import { AppConfig } from '@dam/core';
import { deleteInBatches, JobContext, MaintenanceJob } from '@dam/jobs';
import { AuditService } from './audit.service';

const BATCH = 1000;
const DAY_MS = 86_400_000;

/** `purge-audit`: deletes audit entries older than DAM_AUDIT_RETENTION_DAYS, in batches. Daily. */
@Injectable()
export class PurgeAuditJob extends MaintenanceJob {
  readonly name = 'purge-audit';
  readonly defaultCron = '45 4 * * *';
  readonly description = 'deletes audit entries older than DAM_AUDIT_RETENTION_DAYS';

  constructor(
    private readonly audit: AuditService,
    private readonly config: AppConfig,
  ) {
    super();
  }

  async run(context: JobContext): Promise<void> {
    const cutoff = new Date(Date.now() - this.config.auditRetentionDays * DAY_MS);
    if (context.dryRun) {
      context.note(`would delete the audit entries before ${cutoff.toISOString()}`);
      return;
    }
    await deleteInBatches(context, BATCH, (limit) => this.audit.purgeOlderThan(cutoff, limit));
  }
}
