import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { EmbeddedDataMappingEntity } from '../entities/embedded-data-mapping.entity';

@Injectable()
export class EmbeddedDataMappingsRepository {
  constructor(
    @InjectRepository(EmbeddedDataMappingEntity)
    private readonly mappings: Repository<EmbeddedDataMappingEntity>,
  ) {}

  findAll(): Promise<EmbeddedDataMappingEntity[]> {
    return this.mappings.find({ order: { id: 'ASC' } });
  }

  findById(id: number): Promise<EmbeddedDataMappingEntity | null> {
    return this.mappings.findOneBy({ id });
  }

  save(mapping: EmbeddedDataMappingEntity): Promise<EmbeddedDataMappingEntity> {
    return this.mappings.save(mapping);
  }

  async delete(id: number): Promise<void> {
    await this.mappings.delete({ id });
  }
}
