import { Module } from '@nestjs/common';
import { AccessModule } from '@dam/access';
import { AssetsModule } from '@dam/assets';
import { AssetHistoryController, AuditController } from './audit.controller';
import { AuditMapper } from './audit.mapper';
import { AuditRecordingModule } from './audit-recorder';
import { AuditService } from './audit.service';
import { PurgeAuditJob } from './purge-audit.job';

/**
 * The audit log: an entry per audited domain event in the transaction of the change (AuditRecordingModule,
 * a recorder of platform's DomainEvents, so no owner calls it), `/rest/admin/audit`,
 * `/rest/assets/{id}/history` and `purge-audit`. Off (DAM_AUDIT_ENABLED=false), nothing is recorded: the
 * list and history stay readable.
 */
@Module({
  imports: [AccessModule, AssetsModule, AuditRecordingModule],
  controllers: [AuditController, AssetHistoryController],
  providers: [AuditService, AuditMapper, PurgeAuditJob],
})
export class AuditModule {}
