import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { isUniqueViolation } from '@dam/database';
import { Repository } from 'typeorm';
import { ListAttributeValueEntity } from '../entities/list-attribute-value.entity';
import { DuplicateListValue } from '../attribute-errors';

@Injectable()
export class ListValuesRepository {
  constructor(
    @InjectRepository(ListAttributeValueEntity) private readonly values: Repository<ListAttributeValueEntity>,
  ) {}

  /** Every value, or those of one attribute, in the order they were added. */
  find(attributeId?: number): Promise<ListAttributeValueEntity[]> {
    return this.values.find({
      where: attributeId === undefined ? {} : { attributeId },
      order: { attributeId: 'ASC', id: 'ASC' },
    });
  }

  findById(id: number): Promise<ListAttributeValueEntity | null> {
    return this.values.findOneBy({ id });
  }

  /** Case-insensitively, so that both databases agree on what a duplicate is. */
  async existsInAttribute(attributeId: number, value: string): Promise<boolean> {
    const count = await this.values
      .createQueryBuilder('listValue')
      .where('listValue.attribute_id = :attributeId', { attributeId })
      .andWhere('LOWER(listValue.value) = LOWER(:value)', { value })
      .getCount();
    return count > 0;
  }

  /** Inserts a value; the same value in the same attribute (also from a concurrent request) is a 409. */
  async insert(value: ListAttributeValueEntity): Promise<ListAttributeValueEntity> {
    try {
      return await this.values.save(value);
    } catch (error) {
      if (isUniqueViolation(error)) throw new DuplicateListValue(value.value);
      throw error;
    }
  }

  async delete(id: number): Promise<void> {
    await this.values.delete({ id });
  }
}
