import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { isUniqueViolation } from '@dam/database';
import { InTransaction } from '@dam/events';
import { In, Repository } from 'typeorm';
import { LightboxAssetEntity } from './entities/lightbox-asset.entity';
import { LightboxEntity } from './entities/lightbox.entity';
import { LightboxNameTaken } from './lightbox-name';

/** A lightbox and one asset in it. */
export interface LightboxMember {
  lightboxId: number;
  assetId: number;
}

@Injectable()
export class LightboxesRepository {
  constructor(
    @InjectRepository(LightboxEntity) private readonly lightboxes: Repository<LightboxEntity>,
    @InjectRepository(LightboxAssetEntity) private readonly contents: Repository<LightboxAssetEntity>,
  ) {}

  listOf(userId: number): Promise<LightboxEntity[]> {
    return this.lightboxes.find({ where: { userId }, order: { id: 'ASC' } });
  }

  findById(id: number): Promise<LightboxEntity | null> {
    return this.lightboxes.findOneBy({ id });
  }

  findOwned(userId: number, id: number): Promise<LightboxEntity | null> {
    return this.lightboxes.findOneBy({ userId, id });
  }

  /** Inserts or updates; the unique (user, name) constraint turns a taken name, also a concurrent one, into 409. */
  async save(lightbox: LightboxEntity, within?: InTransaction): Promise<LightboxEntity> {
    try {
      return await this.lightboxes.manager.transaction(async (manager) => {
        const saved = await manager.getRepository(LightboxEntity).save(lightbox);
        await within?.(manager, saved.id);
        return saved;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new LightboxNameTaken(lightbox.name);
      throw error;
    }
  }

  async delete(id: number, within?: InTransaction): Promise<void> {
    await this.lightboxes.manager.transaction(async (manager) => {
      await manager.getRepository(LightboxEntity).delete({ id });
      await within?.(manager, id);
    });
  }

  /** Every asset in any of the lightboxes (visible or not: the caller asks the assets area). */
  async members(lightboxIds: number[]): Promise<LightboxMember[]> {
    if (lightboxIds.length === 0) return [];
    return this.contents.find({
      select: { lightboxId: true, assetId: true },
      where: { lightboxId: In(lightboxIds) },
    });
  }
}
