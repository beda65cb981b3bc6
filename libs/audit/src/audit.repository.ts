import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
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

/** `audit_entries`. */
@Injectable()
export class AuditRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** In the caller's transaction (the change's). */
  async insert(manager: EntityManager, entries: NewAuditEntry[]): Promise<void> {
    if (entries.length > 0) await manager.getRepository(AuditEntryEntity).insert(entries);
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
