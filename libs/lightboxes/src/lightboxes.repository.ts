import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { SqlFragment } from '@dam/access';
import { isUniqueViolation } from '@dam/platform';
import { Repository } from 'typeorm';
import { LightboxAssetEntity } from './entities/lightbox-asset.entity';
import { LightboxEntity } from './entities/lightbox.entity';
import { LightboxNameTaken } from './lightbox-name';

@Injectable()
export class LightboxesRepository {
  constructor(
    @InjectRepository(LightboxEntity) private readonly lightboxes: Repository<LightboxEntity>,
    @InjectRepository(LightboxAssetEntity) private readonly contents: Repository<LightboxAssetEntity>,
  ) {}

  listOf(userId: number): Promise<LightboxEntity[]> {
    return this.lightboxes.find({ where: { userId }, order: { id: 'ASC' } });
  }

  findOwned(userId: number, id: number): Promise<LightboxEntity | null> {
    return this.lightboxes.findOneBy({ userId, id });
  }

  /** Inserts or updates; the unique (user, name) constraint turns a taken name, also a concurrent one, into 409. */
  async save(lightbox: LightboxEntity): Promise<LightboxEntity> {
    try {
      return await this.lightboxes.save(lightbox);
    } catch (error) {
      if (isUniqueViolation(error)) throw new LightboxNameTaken(lightbox.name);
      throw error;
    }
  }

  async delete(id: number): Promise<void> {
    await this.lightboxes.delete({ id });
  }

  /** Per lightbox, how many of its assets pass `visible` (the owner's visibility rule). */
  async sizes(lightboxIds: number[], visible: SqlFragment | undefined): Promise<Map<number, number>> {
    if (lightboxIds.length === 0) return new Map();
    const query = this.contents
      .createQueryBuilder('content')
      .select('content.lightbox_id', 'lightboxId')
      .addSelect('COUNT(*)', 'size')
      .innerJoin('assets', 'a', 'a.id = content.asset_id')
      .where('content.lightbox_id IN (:...lightboxIds)', { lightboxIds })
      .groupBy('content.lightbox_id');
    if (visible !== undefined) query.andWhere(visible.sql, visible.params);
    const rows = await query.getRawMany<{ lightboxId: number | string; size: number | string }>();
    return new Map(rows.map((row) => [Number(row.lightboxId), Number(row.size)]));
  }
}
