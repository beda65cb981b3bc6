import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { isForeignKeyViolation, isUniqueViolation } from '@dam/database';
import { InTransaction } from '@dam/events';
import { Repository } from 'typeorm';
import { LightboxAssetEntity } from './entities/lightbox-asset.entity';

export type AddOutcome = 'added' | 'present' | 'missing';

@Injectable()
export class LightboxContentsRepository {
  constructor(
    @InjectRepository(LightboxAssetEntity) private readonly contents: Repository<LightboxAssetEntity>,
  ) {}

  /** Ids of the lightbox's assets in the order they were added (visible or not); or only `assetId`. */
  async assetIds(lightboxId: number, assetId?: number): Promise<number[]> {
    const rows = await this.contents.find({
      select: { assetId: true },
      where: assetId === undefined ? { lightboxId } : { lightboxId, assetId },
      order: { addedAt: 'ASC', assetId: 'ASC' },
    });
    return rows.map((row) => row.assetId);
  }

  /** One INSERT: a second add (also a concurrent one) finds the row 'present'. */
  async add(lightboxId: number, assetId: number, within?: InTransaction): Promise<AddOutcome> {
    try {
      await this.contents.manager.transaction(async (manager) => {
        await manager.getRepository(LightboxAssetEntity).insert({ lightboxId, assetId, addedAt: new Date() });
        await within?.(manager, assetId);
      });
      return 'added';
    } catch (error) {
      if (isUniqueViolation(error)) return 'present';
      if (isForeignKeyViolation(error)) return 'missing';
      throw error;
    }
  }

  async remove(lightboxId: number, assetId: number, within?: InTransaction): Promise<void> {
    await this.contents.manager.transaction(async (manager) => {
      const removed = await manager.getRepository(LightboxAssetEntity).delete({ lightboxId, assetId });
      if ((removed.affected ?? 0) > 0) await within?.(manager, assetId);
    });
  }
}
