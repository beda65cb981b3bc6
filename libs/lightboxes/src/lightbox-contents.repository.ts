import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { SqlFragment } from '@dam/access';
import { isForeignKeyViolation, isUniqueViolation } from '@dam/platform';
import { DataSource, Repository } from 'typeorm';
import { LightboxAssetEntity } from './entities/lightbox-asset.entity';

export type AddOutcome = 'added' | 'present' | 'missing';

@Injectable()
export class LightboxContentsRepository {
  constructor(
    @InjectRepository(LightboxAssetEntity) private readonly contents: Repository<LightboxAssetEntity>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** Ids of the lightbox's assets passing `visible`, in the order they were added; or only `assetId`. */
  async assetIds(lightboxId: number, visible: SqlFragment | undefined, assetId?: number): Promise<number[]> {
    const query = this.contents
      .createQueryBuilder('content')
      .select('content.asset_id', 'id')
      .innerJoin('assets', 'a', 'a.id = content.asset_id')
      .where('content.lightbox_id = :lightboxId', { lightboxId });
    if (assetId !== undefined) query.andWhere('content.asset_id = :assetId', { assetId });
    if (visible !== undefined) query.andWhere(visible.sql, visible.params);
    const rows = await query
      .orderBy('content.addedAt', 'ASC')
      .addOrderBy('content.assetId', 'ASC')
      .getRawMany<{ id: number | string }>();
    return rows.map((row) => Number(row.id));
  }

  /** True when the asset exists and passes `visible`. */
  async isAssetVisible(assetId: number, visible: SqlFragment | undefined): Promise<boolean> {
    const query = this.dataSource
      .createQueryBuilder()
      .select('a.id', 'id')
      .from('assets', 'a')
      .where('a.id = :assetId', { assetId });
    if (visible !== undefined) query.andWhere(visible.sql, visible.params);
    return (await query.getRawOne()) !== undefined;
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
