import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isUniqueViolation } from '@dam/database';
import { Brackets, DataSource } from 'typeorm';
import { RenditionTaskEntity } from './entities/rendition-task.entity';

/** `lease_until` is a DATETIME (whole seconds on MariaDB): a lease ends at a whole second, rounded up. */
function leaseEnd(now: Date, leaseMs: number): Date {
  return new Date(Math.ceil((now.getTime() + leaseMs) / 1000) * 1000);
}

/**
 * The rendition queue in the database (`rendition_tasks`): one task per file, claimed by an atomic
 * conditional UPDATE (unclaimed, or its lease expired), so two workers never make the renditions of one
 * file at once and a dead worker's claim lapses after its lease.
 */
@Injectable()
export class RenditionTasksRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Queues the file's renditions; a file already queued keeps its one task. */
  async enqueue(assetId: number, fileId: number): Promise<void> {
    try {
      await this.dataSource
        .getRepository(RenditionTaskEntity)
        .insert({ assetId, fileId, holder: null, leaseUntil: null, attempts: 0, createdAt: new Date() });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }

  /** Claims up to `limit` claimable tasks, oldest first, for `holder` until `leaseMs` from now. */
  async claim(holder: string, limit: number, leaseMs: number): Promise<RenditionTaskEntity[]> {
    const now = new Date();
    const candidates = await this.dataSource
      .getRepository(RenditionTaskEntity)
      .createQueryBuilder('task')
      .where(claimable(now))
      .orderBy('task.id')
      .limit(limit * 2)
      .getMany();
    const claimed: RenditionTaskEntity[] = [];
    for (const task of candidates) {
      if (claimed.length >= limit) break;
      const updated = await this.dataSource
        .createQueryBuilder()
        .update(RenditionTaskEntity)
        .set({ holder, leaseUntil: leaseEnd(now, leaseMs), attempts: () => 'attempts + 1' })
        .where('id = :id', { id: task.id })
        .andWhere(claimable(now))
        .execute();
      if ((updated.affected ?? 0) > 0) claimed.push({ ...task, holder, attempts: task.attempts + 1 });
    }
    return claimed;
  }

  /** Extends the leases `holder` still has on `ids`. */
  async renew(holder: string, ids: number[], leaseMs: number): Promise<void> {
    if (ids.length === 0) return;
    await this.dataSource
      .createQueryBuilder()
      .update(RenditionTaskEntity)
      .set({ leaseUntil: leaseEnd(new Date(), leaseMs) })
      .where('id IN (:...ids) AND holder = :holder', { ids, holder })
      .execute();
  }

  /** The task is done (or given up): gone, unless another worker claimed it meanwhile. */
  async finish(id: number, holder: string): Promise<void> {
    await this.dataSource
      .createQueryBuilder()
      .delete()
      .from(RenditionTaskEntity)
      .where('id = :id AND holder = :holder', { id, holder })
      .execute();
  }

  async count(): Promise<number> {
    return this.dataSource.getRepository(RenditionTaskEntity).count();
  }
}

/** Unclaimed, or claimed under a lease that has expired. */
function claimable(now: Date): Brackets {
  return new Brackets((where) => where.where('lease_until IS NULL').orWhere('lease_until < :now', { now }));
}
