import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

export interface PublishingActionRow {
  id: number;
  name: string;
  criteria: string;
}

export type PublishingEventType = 'PUBLISH' | 'UNPUBLISH';

export interface PublishingEvent {
  sequence: number;
  assetId: number;
  type: PublishingEventType;
}

type Id = number | string;
const BATCH = 500;

/** All TypeORM access of publishing actions, their last result sets and their logs. */
@Injectable()
export class PublishingActionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async create(name: string, criteria: string): Promise<number> {
    const now = new Date();
    const result = await this.dataSource
      .createQueryBuilder()
      .insert()
      .into('publishing_actions', ['name', 'criteria', 'next_sequence', 'created_at', 'updated_at'])
      .values({ name, criteria, next_sequence: 1, created_at: now, updated_at: now })
      .execute();
    return insertedId(result.raw);
  }

  async find(id: number): Promise<PublishingActionRow | null> {
    const rows = await this.select().where('p.id = :id', { id }).getRawMany<RawAction>();
    return rows.length === 0 ? null : toRow(rows[0]);
  }

  async list(): Promise<PublishingActionRow[]> {
    return (await this.select().orderBy('p.id').getRawMany<RawAction>()).map(toRow);
  }

  async delete(id: number): Promise<boolean> {
    const result = await this.dataSource
      .createQueryBuilder()
      .delete()
      .from('publishing_actions')
      .where('id = :id', { id })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /**
   * One run, in one transaction: writing the action row first locks it (a row lock on MySQL, the single
   * writer on SQLite), so a concurrent run of the same action waits and then sees this run's result set.
   * Only then is `matching` asked for the ids the search finds now; compared in memory with the members
   * of the last run, the assets that entered the search are logged PUBLISH and those that left it
   * UNPUBLISH, both in id order with increasing sequence numbers. Returns false when the action is gone.
   */
  async run(id: number, matching: () => Promise<number[]>): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const locked = await manager
        .createQueryBuilder()
        .update('publishing_actions')
        .set({ last_run_at: new Date() })
        .where('id = :id', { id })
        .execute();
      if ((locked.affected ?? 0) === 0) return false;
      const row: { next: Id } | undefined = await manager
        .createQueryBuilder()
        .select('p.next_sequence', 'next')
        .from('publishing_actions', 'p')
        .where('p.id = :id', { id })
        .getRawOne();
      let next = Number(row?.next ?? 1);
      const { entered, left } = resultChanges(await matching(), await this.memberIds(manager, id));
      next = await this.log(manager, id, next, entered, 'PUBLISH');
      next = await this.log(manager, id, next, left, 'UNPUBLISH');
      await this.insertMembers(manager, id, entered);
      for (let start = 0; start < left.length; start += BATCH) {
        await manager
          .createQueryBuilder()
          .delete()
          .from('publishing_action_members')
          .where('action_id = :id AND asset_id IN (:...ids)', { id, ids: left.slice(start, start + BATCH) })
          .execute();
      }
      await manager
        .createQueryBuilder()
        .update('publishing_actions')
        .set({ next_sequence: next })
        .where('id = :id', { id })
        .execute();
      return true;
    });
  }

  async events(id: number, startSequence: number, limit: number): Promise<PublishingEvent[]> {
    const rows: Array<{ sequence: Id; assetId: Id; type: string }> = await this.dataSource
      .createQueryBuilder()
      .select('e.sequence', 'sequence')
      .addSelect('e.asset_id', 'assetId')
      .addSelect('e.type', 'type')
      .from('publishing_action_events', 'e')
      .where('e.action_id = :id AND e.sequence >= :startSequence', { id, startSequence })
      .orderBy('e.sequence')
      .limit(limit)
      .getRawMany();
    return rows.map((row) => ({
      sequence: Number(row.sequence),
      assetId: Number(row.assetId),
      type: row.type === 'UNPUBLISH' ? 'UNPUBLISH' : 'PUBLISH',
    }));
  }

  private async memberIds(manager: EntityManager, id: number): Promise<number[]> {
    const rows: Array<{ id: Id }> = await manager
      .createQueryBuilder()
      .select('m.asset_id', 'id')
      .from('publishing_action_members', 'm')
      .where('m.action_id = :actionId', { actionId: id })
      .getRawMany();
    return rows.map((row) => Number(row.id));
  }

  private async log(
    manager: EntityManager,
    id: number,
    first: number,
    assetIds: number[],
    type: PublishingEventType,
  ): Promise<number> {
    const now = new Date();
    for (let start = 0; start < assetIds.length; start += BATCH) {
      const values = assetIds.slice(start, start + BATCH).map((assetId, i) => ({
        action_id: id,
        sequence: first + start + i,
        asset_id: assetId,
        type,
        created_at: now,
      }));
      await manager
        .createQueryBuilder()
        .insert()
        .into('publishing_action_events', ['action_id', 'sequence', 'asset_id', 'type', 'created_at'])
        .values(values)
        .execute();
    }
    return first + assetIds.length;
  }

  private async insertMembers(manager: EntityManager, id: number, assetIds: number[]): Promise<void> {
    for (let start = 0; start < assetIds.length; start += BATCH) {
      await manager
        .createQueryBuilder()
        .insert()
        .into('publishing_action_members', ['action_id', 'asset_id'])
        .values(assetIds.slice(start, start + BATCH).map((assetId) => ({ action_id: id, asset_id: assetId })))
        .execute();
    }
  }

  private select() {
    return this.dataSource
      .createQueryBuilder()
      .select('p.id', 'id')
      .addSelect('p.name', 'name')
      .addSelect('p.criteria', 'criteria')
      .from('publishing_actions', 'p');
  }
}

interface RawAction {
  id: Id;
  name: string;
  criteria: string;
}

/** better-sqlite3 reports the new row id as a number, mysql2 as `insertId`. */
function insertedId(raw: unknown): number {
  const id = typeof raw === 'object' && raw !== null ? (raw as { insertId?: unknown }).insertId : raw;
  return Number(id);
}

/** What entered a result set (in `current`, not in `members`) and what left it, each in id order. */
export function resultChanges(current: number[], members: number[]): { entered: number[]; left: number[] } {
  const now = new Set(current);
  const before = new Set(members);
  const byNumber = (a: number, b: number): number => a - b;
  return {
    entered: [...now].filter((assetId) => !before.has(assetId)).sort(byNumber),
    left: [...before].filter((assetId) => !now.has(assetId)).sort(byNumber),
  };
}

function toRow(raw: RawAction): PublishingActionRow {
  return { id: Number(raw.id), name: raw.name, criteria: raw.criteria };
}
