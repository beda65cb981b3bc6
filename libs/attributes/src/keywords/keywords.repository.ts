import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { isUniqueViolation } from '@dam/database';
import { Repository } from 'typeorm';
import { KeywordSynonymEntity } from '../entities/keyword-synonym.entity';
import { KeywordEntity } from '../entities/keyword.entity';
import { DuplicateKeyword } from '../attribute-errors';

/** Keyword rows with their synonyms: keyword id -> synonyms. */
export interface KeywordRows {
  keywords: KeywordEntity[];
  synonyms: Map<number, string[]>;
}

@Injectable()
export class KeywordsRepository {
  constructor(
    @InjectRepository(KeywordEntity) private readonly keywords: Repository<KeywordEntity>,
    @InjectRepository(KeywordSynonymEntity) private readonly synonyms: Repository<KeywordSynonymEntity>,
  ) {}

  /** Every keyword (or those of one attribute) and their synonyms, in two queries. */
  async findWithSynonyms(attributeId?: number): Promise<KeywordRows> {
    const keywords = await this.keywords.find({
      where: attributeId === undefined ? {} : { attributeId },
      order: { id: 'ASC' },
    });
    const synonyms = new Map<number, string[]>();
    const rows =
      attributeId === undefined
        ? await this.synonyms.find({ order: { synonym: 'ASC' } })
        : await this.synonyms
            .createQueryBuilder('synonym')
            .innerJoin(KeywordEntity, 'keyword', 'keyword.id = synonym.keyword_id')
            .where('keyword.attribute_id = :attributeId', { attributeId })
            .getMany();
    for (const row of rows)
      synonyms.set(row.keywordId, [...(synonyms.get(row.keywordId) ?? []), row.synonym]);
    return { keywords, synonyms };
  }

  findById(id: number): Promise<KeywordEntity | null> {
    return this.keywords.findOneBy({ id });
  }

  /** Case-insensitively, so that both databases agree on what a duplicate is. */
  async siblingNamed(attributeId: number, parentKey: number, name: string): Promise<KeywordEntity | null> {
    return this.keywords
      .createQueryBuilder('keyword')
      .where('keyword.attribute_id = :attributeId', { attributeId })
      .andWhere('keyword.parent_key = :parentKey', { parentKey })
      .andWhere('LOWER(keyword.name) = LOWER(:name)', { name })
      .getOne();
  }

  async hasChildren(id: number): Promise<boolean> {
    return (await this.keywords.countBy({ parentId: id })) > 0;
  }

  /** Saves the keyword and, when given, replaces its synonyms, in one transaction. */
  async save(keyword: KeywordEntity, synonyms?: string[]): Promise<KeywordEntity> {
    try {
      return await this.keywords.manager.transaction(async (manager) => {
        const saved = await manager.getRepository(KeywordEntity).save(keyword);
        if (synonyms !== undefined) {
          const synonymRepository = manager.getRepository(KeywordSynonymEntity);
          await synonymRepository.delete({ keywordId: saved.id });
          if (synonyms.length > 0) {
            await synonymRepository.insert(synonyms.map((synonym) => ({ keywordId: saved.id, synonym })));
          }
        }
        return saved;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new DuplicateKeyword(keyword.name);
      throw error;
    }
  }

  async delete(id: number): Promise<void> {
    await this.keywords.delete({ id });
  }
}
