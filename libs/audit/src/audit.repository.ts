import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { datetimeParameter } from '@dam/core';
import { DataSource, EntityManager } from 'typeorm';
import { AuditEntryEntity } from './entities/audit-entry.entity';

/** An audit entry as stored. */
export type AuditEntry = AuditEntryEntity;
export type NewAuditEntry = Omit<AuditEntryEntity, 'id'>;

/** The filters of the list; every one optional. `before`: the cursor (entries with a smaller id). */
export interface AuditFilter {
  targetType?: string;
  targetId?: number;
  actorUserId?: number;
  action?: string;
  since?: Date;
  until?: Date;
  before?: number;
}

/** The columns an entry is written with, in the order of `insert`'s values. */
const INSERTED = [
  'at',
  'actor_user_id',
  'client_id',
  'request_id',
  'action',
  'target_type',
  'target_id',
  'changes',
] as const;

/** `audit_entries`. */
@Injectable()
export class AuditRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * In the caller's transaction (the change's): one INSERT whose text depends only on the number of
   * entries, every value a parameter, so the driver reuses its prepared statement. (The entity
   * repository's insert writes numbers such as the target id into the SQL text on SQLite: a statement
   * prepared anew for every asset, and the query builder's work, 1.2-3 ms of a PUT's transaction.)
   */
  async insert(manager: EntityManager, entries: NewAuditEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const type = manager.connection.options.type;
    const values = entries.flatMap((entry) => [
      datetimeParameter(entry.at, type),
      entry.actorUserId,
      entry.clientId,
      entry.requestId,
      entry.action,
      entry.targetType,
      entry.targetId,
      entry.changes,
    ]);
    const row = `(${INSERTED.map(() => '?').join(', ')})`;
    await manager.query(
      `INSERT INTO audit_entries (${INSERTED.join(', ')}) VALUES ${entries.map(() => row).join(', ')}`,
      values,
    );
  }

  /** Newest first (by id), at most `limit`. */
  async page(filter: AuditFilter, limit: number): Promise<AuditEntry[]> {
    const query = this.dataSource.getRepository(AuditEntryEntity).createQueryBuilder('e');
    if (filter.targetType !== undefined) query.andWhere('e.target_type = :type', { type: filter.targetType });
    if (filter.targetId !== undefined) query.andWhere('e.target_id = :target', { target: filter.targetId });
    if (filter.actorUserId !== undefined)
      query.andWhere('e.actor_user_id = :actor', { actor: filter.actorUserId });
    if (filter.action !== undefined) query.andWhere('e.action = :action', { action: filter.action });
    if (filter.since !== undefined) query.andWhere('e.at >= :since', { since: filter.since });
    if (filter.until !== undefined) query.andWhere('e.at < :until', { until: filter.until });
    if (filter.before !== undefined) query.andWhere('e.id < :before', { before: filter.before });
    return query.orderBy('e.id', 'DESC').limit(limit).getMany();
  }

  /** Deletes up to `limit` entries older than `cutoff`, oldest first; how many went. */
  async purgeOlderThan(cutoff: Date, limit: number): Promise<number> {
    const repository = this.dataSource.getRepository(AuditEntryEntity);
    const old = await repository
      .createQueryBuilder('e')
      .select('e.id', 'id')
      .where('e.at < :cutoff', { cutoff })
      .orderBy('e.at', 'ASC')
      .limit(limit)
      .getRawMany<{ id: number | string }>();
    if (old.length === 0) return 0;
    await repository.delete(old.map((row) => Number(row.id)));
    return old.length;
  }
}
