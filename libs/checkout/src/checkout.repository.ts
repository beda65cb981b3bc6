import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { isForeignKeyViolation, isUniqueViolation } from '@dam/database';
import { InTransaction } from '@dam/events';
import { Repository } from 'typeorm';
import { AssetCheckoutEntity } from './entities/asset-checkout.entity';

export type InsertOutcome = 'inserted' | 'taken' | 'missing';

/** All queries of the checkout table (the only table this area owns). */
@Injectable()
export class CheckoutRepository {
  constructor(
    @InjectRepository(AssetCheckoutEntity) private readonly checkouts: Repository<AssetCheckoutEntity>,
  ) {}

  async holderOf(assetId: number): Promise<number | null> {
    const checkout = await this.checkouts.findOneBy({ assetId });
    return checkout === null ? null : checkout.userId;
  }

  /** Checks out with one INSERT: a row already there (also from a concurrent request) is 'taken'. */
  async insert(assetId: number, userId: number, within?: InTransaction): Promise<InsertOutcome> {
    try {
      await this.checkouts.manager.transaction(async (manager) => {
        await manager
          .getRepository(AssetCheckoutEntity)
          .insert({ assetId, userId, checkedOutAt: new Date() });
        await within?.(manager, assetId);
      });
      return 'inserted';
    } catch (error) {
      if (isUniqueViolation(error)) return 'taken';
      if (isForeignKeyViolation(error)) return 'missing';
      throw error;
    }
  }

  /** Checks in; with `holderId`, only when the asset is still checked out to that user. */
  async delete(assetId: number, holderId?: number, within?: InTransaction): Promise<boolean> {
    return this.checkouts.manager.transaction(async (manager) => {
      const result = await manager
        .getRepository(AssetCheckoutEntity)
        .delete(holderId === undefined ? { assetId } : { assetId, userId: holderId });
      const deleted = (result.affected ?? 0) > 0;
      if (deleted) await within?.(manager, assetId);
      return deleted;
    });
  }

  /** Checkouts held by one user, or all of them; oldest first. */
  list(userId: number | undefined): Promise<AssetCheckoutEntity[]> {
    return this.checkouts.find({
      where: userId === undefined ? {} : { userId },
      order: { checkedOutAt: 'ASC', assetId: 'ASC' },
    });
  }
}
