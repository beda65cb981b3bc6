import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { SqlFragment } from '@dam/access';
import { isForeignKeyViolation, isUniqueViolation } from '@dam/platform';
import { DataSource, Repository } from 'typeorm';
import { AssetCheckoutEntity } from './entities/asset-checkout.entity';

/** What the checkout rules need to know about an asset: who may see it and which levels it is in. */
export interface CheckoutAsset {
  id: number;
  addedByUserId: number | null;
  submitted: boolean;
  uploadPending: boolean;
  accessLevelIds: number[];
}

export type InsertOutcome = 'inserted' | 'taken' | 'missing';

interface AssetRow {
  id: number | string;
  added_by_user_id: number | string | null;
  submitted: number | boolean | string;
  upload_pending: number | boolean | string;
}

@Injectable()
export class CheckoutRepository {
  constructor(
    @InjectRepository(AssetCheckoutEntity) private readonly checkouts: Repository<AssetCheckoutEntity>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async findAsset(assetId: number): Promise<CheckoutAsset | null> {
    const rows: AssetRow[] = await this.dataSource.query(
      'SELECT id, added_by_user_id, submitted, upload_pending FROM assets WHERE id = ?',
      [assetId],
    );
    const row = rows[0];
    if (row === undefined) return null;
    const levels: Array<{ access_level_id: number | string }> = await this.dataSource.query(
      'SELECT access_level_id FROM asset_access_levels WHERE asset_id = ? ORDER BY access_level_id',
      [assetId],
    );
    return {
      id: Number(row.id),
      addedByUserId: row.added_by_user_id === null ? null : Number(row.added_by_user_id),
      submitted: Boolean(Number(row.submitted)),
      uploadPending: Boolean(Number(row.upload_pending)),
      accessLevelIds: levels.map((level) => Number(level.access_level_id)),
    };
  }

  async userExists(userId: number): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query('SELECT id FROM users WHERE id = ?', [userId]);
    return rows.length > 0;
  }

  async holderOf(assetId: number): Promise<number | null> {
    const checkout = await this.checkouts.findOneBy({ assetId });
    return checkout === null ? null : checkout.userId;
  }

  /** Checks out with one INSERT: a row already there (also from a concurrent request) is 'taken'. */
  async insert(assetId: number, userId: number): Promise<InsertOutcome> {
    try {
      await this.checkouts.insert({ assetId, userId, checkedOutAt: new Date() });
      return 'inserted';
    } catch (error) {
      if (isUniqueViolation(error)) return 'taken';
      if (isForeignKeyViolation(error)) return 'missing';
      throw error;
    }
  }

  /** Checks in; with `holderId`, only when the asset is still checked out to that user. */
  async delete(assetId: number, holderId?: number): Promise<boolean> {
    const result = await this.checkouts.delete(
      holderId === undefined ? { assetId } : { assetId, userId: holderId },
    );
    return (result.affected ?? 0) > 0;
  }

  /** Checkouts held by one user, or all of them, of assets passing `visible`; oldest first. */
  list(userId: number | undefined, visible: SqlFragment | undefined): Promise<AssetCheckoutEntity[]> {
    const query = this.checkouts
      .createQueryBuilder('checkout')
      .innerJoin('assets', 'a', 'a.id = checkout.asset_id');
    if (userId !== undefined) query.andWhere('checkout.user_id = :userId', { userId });
    if (visible !== undefined) query.andWhere(visible.sql, visible.params);
    return query.orderBy('checkout.checkedOutAt', 'ASC').addOrderBy('checkout.assetId', 'ASC').getMany();
  }
}
