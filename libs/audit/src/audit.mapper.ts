import { Injectable } from '@nestjs/common';
import { UrlService, xmlMapping } from '@dam/http';
import { FieldChanges } from '@dam/events';
import { AuditEntry } from './audit.repository';

/** An item of `GET /rest/admin/audit` and `GET /rest/assets/{id}/history`. */
export interface AuditEntryRepresentation {
  id: number;
  at: string;
  /** The user who made the change (null: a job). */
  actor: string | null;
  /** The OAuth client of the request's token, when known. */
  clientId: string | null;
  action: string;
  /** The URL of what the action was on; null when there is none (a failed login of an unknown user). */
  target: string | null;
  requestId: string | null;
  /** `{field: {before, after}}`, null when the change did not say. */
  changes: FieldChanges | null;
}

export const AUDIT_ENTRY_XML = xmlMapping('auditEntry');

@Injectable()
export class AuditMapper {
  constructor(private readonly urls: UrlService) {}

  toEntry(entry: AuditEntry): AuditEntryRepresentation {
    return {
      id: Number(entry.id),
      at: entry.at.toISOString(),
      actor: entry.actorUserId === null ? null : this.urls.rest('users', entry.actorUserId),
      clientId: entry.clientId,
      action: entry.action,
      target: entry.targetId === null ? null : this.urls.rest(...entry.targetType.split('/'), entry.targetId),
      requestId: entry.requestId,
      changes: entry.changes === null ? null : (JSON.parse(entry.changes) as FieldChanges),
    };
  }
}
