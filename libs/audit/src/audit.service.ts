import { Injectable } from '@nestjs/common';
import { ActorUser, requireAdmin } from '@dam/access';
import { AssetReader } from '@dam/assets';
import { InvalidInput } from '@dam/errors';
import { parsePositiveId, UrlService } from '@dam/http';
import { AuditEntry, AuditFilter, AuditRepository } from './audit.repository';

/** The query of the audit lists (all optional). */
export interface AuditQuery {
  assetId?: unknown;
  userId?: unknown;
  action?: unknown;
  since?: unknown;
  until?: unknown;
  pageSize?: unknown;
  cursor?: unknown;
}

/** A page of entries and the URL of the next one (null on the last page). */
export interface AuditPage {
  entries: AuditEntry[];
  next: string | null;
}

const DEFAULT_PAGE_SIZE = 100;
const MAX_PAGE_SIZE = 1000;

/**
 * The audit log as read (DESIGN §12 "Audit"): newest first with a cursor. Its entries are written by
 * AuditRecorder (audit-recorder.ts) in the transaction of each change.
 */
@Injectable()
export class AuditService {
  constructor(
    private readonly entries: AuditRepository,
    private readonly reader: AssetReader,
    private readonly urls: UrlService,
  ) {}

  /** `GET /rest/admin/audit` (admins). */
  async list(actor: ActorUser, query: AuditQuery): Promise<AuditPage> {
    requireAdmin(actor, 'read the audit log');
    const filter: AuditFilter = { ...readFilter(query) };
    const assetId = optionalId(query.assetId, 'assetId');
    if (assetId !== undefined) Object.assign(filter, { targetType: 'assets', targetId: assetId });
    return this.page(filter, query, this.urls.rest('admin', 'audit'));
  }

  /** `GET /rest/assets/{id}/history`: the asset's entries, for anyone who sees the asset. */
  async history(actor: ActorUser, assetId: number, query: AuditQuery): Promise<AuditPage> {
    await this.reader.visibleOrThrow(actor, assetId);
    const filter: AuditFilter = { ...readFilter(query), targetType: 'assets', targetId: assetId };
    return this.page(filter, query, this.urls.rest('assets', assetId, 'history'));
  }

  /** Purges the entries older than `cutoff`, `batch` at a time; how many went. */
  purgeOlderThan(cutoff: Date, batch: number): Promise<number> {
    return this.entries.purgeOlderThan(cutoff, batch);
  }

  private async page(filter: AuditFilter, query: AuditQuery, listUrl: string): Promise<AuditPage> {
    const pageSize = pageSizeOf(query.pageSize);
    const entries = await this.entries.page(filter, pageSize);
    const last = entries[entries.length - 1];
    if (entries.length < pageSize || last === undefined) return { entries, next: null };
    const params: Record<string, string> = {};
    for (const [name, value] of Object.entries(query)) {
      if (typeof value === 'string' && name !== 'cursor') params[name] = value;
    }
    return { entries, next: this.urls.withQuery(listUrl, { ...params, cursor: Number(last.id), pageSize }) };
  }
}

function readFilter(query: AuditQuery): AuditFilter {
  const action = query.action;
  if (action !== undefined && (typeof action !== 'string' || action.length > 64)) {
    throw new InvalidInput('action must be an action name such as asset.updated');
  }
  return {
    actorUserId: optionalId(query.userId, 'userId'),
    action: action === '' ? undefined : action,
    since: optionalTime(query.since, 'since'),
    until: optionalTime(query.until, 'until'),
    before: optionalId(query.cursor, 'cursor'),
  };
}

function optionalId(raw: unknown, name: string): number | undefined {
  return raw === undefined || raw === '' ? undefined : parsePositiveId(raw, name);
}

/** An ISO-8601 time (a date alone is its midnight UTC). */
function optionalTime(raw: unknown, name: string): Date | undefined {
  if (raw === undefined || raw === '') return undefined;
  const time =
    typeof raw === 'string' && /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(raw)
      ? new Date(raw)
      : new Date(NaN);
  if (Number.isNaN(time.getTime())) throw new InvalidInput(`${name} must be an ISO-8601 date or time`);
  return time;
}

function pageSizeOf(raw: unknown): number {
  if (raw === undefined || raw === '') return DEFAULT_PAGE_SIZE;
  const size = typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(size) || size < 1 || size > MAX_PAGE_SIZE) {
    throw new InvalidInput(`pageSize must be a whole number from 1 to ${MAX_PAGE_SIZE}`);
  }
  return size;
}
