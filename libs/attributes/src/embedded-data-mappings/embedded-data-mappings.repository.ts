import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { CacheGenerations } from '@dam/database';
import { Repository } from 'typeorm';
import { ATTRIBUTES_GENERATION } from '../attributes/attributes.repository';
import { EmbeddedDataMappingEntity } from '../entities/embedded-data-mapping.entity';

@Injectable()
export class EmbeddedDataMappingsRepository {
  constructor(
    @InjectRepository(EmbeddedDataMappingEntity)
    private readonly mappings: Repository<EmbeddedDataMappingEntity>,
    private readonly generations: CacheGenerations,
  ) {}

  findAll(): Promise<EmbeddedDataMappingEntity[]> {
    return this.mappings.find({ order: { id: 'ASC' } });
  }

  findById(id: number): Promise<EmbeddedDataMappingEntity | null> {
    return this.mappings.findOneBy({ id });
  }

  save(mapping: EmbeddedDataMappingEntity): Promise<EmbeddedDataMappingEntity> {
    return this.mappings.manager.transaction(async (manager) => {
      const saved = await manager.getRepository(EmbeddedDataMappingEntity).save(mapping);
      await this.generations.bump(ATTRIBUTES_GENERATION, manager);
      return saved;
    });
  }

  async delete(id: number): Promise<void> {
    await this.mappings.manager.transaction(async (manager) => {
      await manager.getRepository(EmbeddedDataMappingEntity).delete({ id });
      await this.generations.bump(ATTRIBUTES_GENERATION, manager);
    });
  }
}
