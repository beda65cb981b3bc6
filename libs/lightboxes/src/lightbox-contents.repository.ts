import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { isForeignKeyViolation, isUniqueViolation } from '@dam/platform';
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
  async add(lightboxId: number, assetId: number): Promise<AddOutcome> {
    try {
      await this.contents.insert({ lightboxId, assetId, addedAt: new Date() });
      return 'added';
    } catch (error) {
      if (isUniqueViolation(error)) return 'present';
      if (isForeignKeyViolation(error)) return 'missing';
      throw error;
    }
  }

  async remove(lightboxId: number, assetId: number): Promise<void> {
    await this.contents.delete({ lightboxId, assetId });
  }
}
