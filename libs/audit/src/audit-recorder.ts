import { Injectable, Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig, RequestContext } from '@dam/core';
import { DomainEvent, DomainEvents } from '@dam/events';
import { EntityManager } from 'typeorm';
import { auditedEvent } from './audit-actions';
import { AuditRepository, NewAuditEntry } from './audit.repository';
import { AuditEntryEntity } from './entities/audit-entry.entity';

/**
 * The writing half of the audit log (DESIGN §12 "Audit"): an entry per audited domain event, written by
 * DomainEvents' recorder in the transaction of the change (a change rolled back leaves none), with the
 * request's id and OAuth client when there is a request.
 */
@Injectable()
export class AuditRecorder {
  constructor(private readonly entries: AuditRepository) {}

  /** The entries of the audited ones among `events`, in the change's transaction. */
  async record(manager: EntityManager, events: readonly DomainEvent[]): Promise<void> {
    const context = RequestContext.current();
    const rows: NewAuditEntry[] = [];
    for (const event of events) {
      const audited = auditedEvent(event);
      if (audited === undefined) continue;
      rows.push({
        ...audited,
        at: event.occurredAt,
        clientId: context?.clientId ?? null,
        requestId: context?.requestId ?? null,
        changes: event.changes === undefined ? null : JSON.stringify(event.changes),
      });
    }
    await this.entries.insert(manager, rows);
  }
}

/**
 * The recorder alone, for every process that changes data: the API (through AuditModule) and the CLI,
 * whose commands (users, OAuth clients) write their entries as the API's requests do. Off
 * (DAM_AUDIT_ENABLED=false), nothing is recorded.
 */
@Module({
  imports: [TypeOrmModule.forFeature([AuditEntryEntity])],
  providers: [AuditRepository, AuditRecorder],
  exports: [AuditRepository],
})
export class AuditRecordingModule implements OnModuleInit {
  constructor(
    private readonly events: DomainEvents,
    private readonly recorder: AuditRecorder,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    if (this.config.auditEnabled)
      this.events.addRecorder((manager, events) => this.recorder.record(manager, events));
  }
}
