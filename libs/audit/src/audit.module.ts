import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessModule } from '@dam/access';
import { AssetsModule } from '@dam/assets';
import { AppConfig } from '@dam/core';
import { DomainEvents } from '@dam/events';
import { AssetHistoryController, AuditController } from './audit.controller';
import { AuditMapper } from './audit.mapper';
import { AuditRepository } from './audit.repository';
import { AuditService } from './audit.service';
import { AuditEntryEntity } from './entities/audit-entry.entity';
import { PurgeAuditJob } from './purge-audit.job';

/**
 * The audit log: an entry per audited domain event in the transaction of the change (a recorder of
 * platform's DomainEvents, so no owner calls it), `/rest/admin/audit`, `/rest/assets/{id}/history` and
 * `purge-audit`.
 */
@Module({
  imports: [AccessModule, AssetsModule, TypeOrmModule.forFeature([AuditEntryEntity])],
  controllers: [AuditController, AssetHistoryController],
  providers: [AuditRepository, AuditService, AuditMapper, PurgeAuditJob],
})
export class AuditModule implements OnModuleInit {
  constructor(
    private readonly events: DomainEvents,
    private readonly audit: AuditService,
    private readonly config: AppConfig,
  ) {}

  /** Off (DAM_AUDIT_ENABLED=false), nothing is recorded: the list and history stay readable. */
  onModuleInit(): void {
    if (this.config.auditEnabled)
      this.events.addRecorder((manager, events) => this.audit.record(manager, events));
  }
}
