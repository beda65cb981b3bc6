import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { InTransaction } from '@dam/events';
import { DataSource, EntityManager, In, LessThan, Repository } from 'typeorm';
import { ShareItemEntity } from './entities/share-item.entity';
import { ShareEntity } from './entities/share.entity';

/** A share as the lib works with it (the entity, kept inside the lib). */
export type Share = ShareEntity;

/** One item of a share's snapshot. */
export interface ShareItem {
  position: number;
  assetId: number;
}

/** Rows inserted per statement (SQLite binds at most 32766 parameters). */
const INSERT_BATCH = 500;

/** All SQL of `shares` and `share_items`. */
@Injectable()
export class SharesRepository {
  private readonly shares: Repository<ShareEntity>;
  private readonly items: Repository<ShareItemEntity>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.shares = dataSource.getRepository(ShareEntity);
    this.items = dataSource.getRepository(ShareItemEntity);
  }

  /** The share and its snapshot, in one transaction with `within` (its event). */
  async create(share: Omit<ShareEntity, 'id'>, assetIds: number[], within: InTransaction): Promise<Share> {
    return this.dataSource.transaction(async (manager) => {
      const saved = await manager.getRepository(ShareEntity).save(Object.assign(new ShareEntity(), share));
      const rows = assetIds.map((assetId, index) => ({ shareId: saved.id, position: index + 1, assetId }));
      for (let start = 0; start < rows.length; start += INSERT_BATCH) {
        await manager.getRepository(ShareItemEntity).insert(rows.slice(start, start + INSERT_BATCH));
      }
      await within(manager, saved.id);
      return saved;
    });
  }

  /** Newest first; `userId` undefined for everyone's. */
  async page(
    userId: number | undefined,
    offset: number,
    limit: number,
  ): Promise<{ shares: Share[]; total: number }> {
    const where = userId === undefined ? {} : { userId };
    const [shares, total] = await this.shares.findAndCount({
      where,
      order: { id: 'DESC' },
      skip: offset,
      take: limit,
    });
    return { shares, total };
  }

  findById(id: number): Promise<Share | null> {
    return this.shares.findOneBy({ id });
  }

  findByTokenHash(tokenHash: string): Promise<Share | null> {
    return this.shares.findOneBy({ tokenHash });
  }

  /** The snapshot, in its order. */
  async itemsOf(shareId: number): Promise<ShareItem[]> {
    const rows = await this.items.find({ where: { shareId }, order: { position: 'ASC' } });
    return rows.map(({ position, assetId }) => ({ position, assetId }));
  }

  /** Marks it revoked; false when it already was (nothing written, `within` not run). */
  async revoke(id: number, now: Date, within: InTransaction): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const result = await manager
        .createQueryBuilder()
        .update(ShareEntity)
        .set({ revokedAt: now })
        .where('id = :id AND revoked_at IS NULL', { id })
        .execute();
      if ((result.affected ?? 0) === 0) return false;
      await within(manager, id);
      return true;
    });
  }

  /**
   * Counts one download, or answers false when the share was revoked or its downloads are used up: one
   * conditional UPDATE, atomic on every database and across instances (two clients racing for the last
   * download: one row update, one winner). The winner's `within` (its event) commits with the count.
   */
  async countDownload(id: number, within: (manager: EntityManager) => Promise<void>): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const result = await manager
        .createQueryBuilder()
        .update(ShareEntity)
        .set({ downloads: () => 'downloads + 1' })
        .where('id = :id AND revoked_at IS NULL AND (max_downloads IS NULL OR downloads < max_downloads)', {
          id,
        })
        .execute();
      if ((result.affected ?? 0) === 0) return false;
      await within(manager);
      return true;
    });
  }

  /** Ids of shares expired before `now`, oldest expiry first. */
  async expiredIds(now: Date, limit: number): Promise<number[]> {
    const rows = await this.shares.find({
      select: { id: true },
      where: { expiresAt: LessThan(now) },
      order: { expiresAt: 'ASC' },
      take: limit,
    });
    return rows.map((row) => row.id);
  }

  /** Deletes the shares (their items go with them). */
  async delete(ids: number[]): Promise<number> {
    if (ids.length === 0) return 0;
    const result = await this.shares.delete({ id: In(ids) });
    return result.affected ?? ids.length;
  }
}
