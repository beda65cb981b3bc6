import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isUniqueViolation } from '@dam/database';
import { DataSource, EntityManager } from 'typeorm';

const TABLE = 'rights_expiry';

export interface Rights {
  assetId: number;
  expiresAt: Date | null;
  expiredAt: Date | null;
}

/** All SQL on `rights_expiry`, the module's own table. */
@Injectable()
export class RightsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Starts the rights of a new asset; an asset already known keeps its rights. Answers whether it started. */
  async start(assetId: number, expiresAt: Date | null): Promise<boolean> {
    try {
      await this.dataSource
        .createQueryBuilder()
        .insert()
        .into(TABLE)
        .values({ asset_id: assetId, expires_at: expiresAt, expired_at: null, updated_at: new Date() })
        .execute();
      return true;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      return false;
    }
  }

  /** Sets (or clears) when the rights end; a new date lifts an expiry. */
  async set(assetId: number, expiresAt: Date | null): Promise<void> {
    // No row: insert one. When a concurrent `start` (the asset.created listener) inserts it first, this
    // date must still win: update the row it made.
    for (let attempt = 1; ; attempt++) {
      const updated = await this.dataSource
        .createQueryBuilder()
        .update(TABLE)
        .set({ expires_at: expiresAt, expired_at: null, updated_at: new Date() })
        .where('asset_id = :assetId', { assetId })
        .execute();
      if ((updated.affected ?? 0) > 0 || (await this.start(assetId, expiresAt))) return;
      // Inserted and deleted again between the two statements, more than once: say so, never drop the date.
      if (attempt === 3)
        throw new Error(`the rights of asset ${assetId} changed under every attempt to set them`);
    }
  }

  async forget(assetId: number): Promise<void> {
    await this.dataSource
      .createQueryBuilder()
      .delete()
      .from(TABLE)
      .where('asset_id = :assetId', { assetId })
      .execute();
  }

  async get(assetId: number): Promise<Rights | undefined> {
    const row = await this.select().where('r.asset_id = :assetId', { assetId }).getRawOne<RawRights>();
    return row === undefined ? undefined : toRights(row);
  }

  async page(offset: number, limit: number): Promise<{ rights: Rights[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.select().orderBy('r.asset_id', 'ASC').offset(offset).limit(limit).getRawMany<RawRights>(),
      this.dataSource
        .createQueryBuilder()
        .select('COUNT(*)', 'count')
        .from(TABLE, 'r')
        .getRawOne<{ count: string | number }>(),
    ]);
    return { rights: rows.map(toRights), total: Number(count?.count ?? 0) };
  }

  /** Up to `limit` assets above `afterId` whose rights ended by `now` and are not marked expired yet. */
  async due(now: Date, afterId: number, limit: number): Promise<number[]> {
    const rows = await this.dataSource
      .createQueryBuilder()
      .select('r.asset_id', 'asset_id')
      .from(TABLE, 'r')
      .where('r.expires_at <= :now AND r.expired_at IS NULL AND r.asset_id > :afterId', { now, afterId })
      .orderBy('r.asset_id', 'ASC')
      .limit(limit)
      .getRawMany<{ asset_id: number | string }>();
    return rows.map((row) => Number(row.asset_id));
  }

  /** Marks the rights expired (once: false when another run did it first), in the caller's transaction. */
  async markExpired(manager: EntityManager, assetId: number, now: Date): Promise<boolean> {
    const result = await manager
      .createQueryBuilder()
      .update(TABLE)
      .set({ expired_at: now, updated_at: now })
      .where('asset_id = :assetId AND expired_at IS NULL', { assetId })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  private select() {
    return this.dataSource
      .createQueryBuilder()
      .select(['r.asset_id AS asset_id', 'r.expires_at AS expires_at', 'r.expired_at AS expired_at'])
      .from(TABLE, 'r');
  }
}

interface RawRights {
  asset_id: number | string;
  expires_at: Date | string | null;
  expired_at: Date | string | null;
}

function toRights(row: RawRights): Rights {
  return {
    assetId: Number(row.asset_id),
    expiresAt: toDate(row.expires_at),
    expiredAt: toDate(row.expired_at),
  };
}

function toDate(raw: Date | string | null): Date | null {
  if (raw === null) return null;
  if (raw instanceof Date) return raw;
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(raw) ? raw : `${raw.replace(' ', 'T')}Z`);
}
