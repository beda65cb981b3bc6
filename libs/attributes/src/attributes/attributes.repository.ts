import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { CacheGenerations } from '@dam/database';
import { TranslationsService } from '@dam/i18n';
import { EntityManager, In, Repository } from 'typeorm';
import { AttributeEntity } from '../entities/attribute.entity';
import { DisplayAttributeGroupMemberEntity } from '../entities/display-attribute-group-member.entity';
import { DisplayAttributeGroupEntity } from '../entities/display-attribute-group.entity';
import { KeywordEntity } from '../entities/keyword.entity';

export const ATTRIBUTE_TRANSLATION_TYPE = 'attribute';

/**
 * The generation the attributes area bumps with every write the catalog's caches depend on (attributes,
 * their labels, display groups, embedded-data mappings, asset types), in the write's transaction.
 */
export const ATTRIBUTES_GENERATION = 'attributes';

/** A label in a language other than the default, stored beside the attribute. */
export interface TranslatedText {
  language: string;
  text: string;
}

@Injectable()
export class AttributesRepository {
  constructor(
    @InjectRepository(AttributeEntity) private readonly attributes: Repository<AttributeEntity>,
    private readonly translations: TranslationsService,
    private readonly generations: CacheGenerations,
  ) {}

  findAll(): Promise<AttributeEntity[]> {
    return this.attributes.find({ order: { displayOrder: 'ASC', id: 'ASC' } });
  }

  /** The attributes of the first display attribute group (display order, then id), in their order there. */
  async displayAttributeIds(): Promise<number[]> {
    const manager = this.attributes.manager;
    const [first] = await manager
      .getRepository(DisplayAttributeGroupEntity)
      .find({ select: { id: true }, order: { displayOrder: 'ASC', id: 'ASC' }, take: 1 });
    if (first === undefined) return [];
    const members = await manager.getRepository(DisplayAttributeGroupMemberEntity).find({
      select: { attributeId: true },
      where: { groupId: first.id },
      order: { position: 'ASC', attributeId: 'ASC' },
    });
    return members.map((member) => member.attributeId);
  }

  findById(id: number): Promise<AttributeEntity | null> {
    return this.attributes.findOneBy({ id });
  }

  findByStaticName(staticName: string): Promise<AttributeEntity | null> {
    return this.attributes.findOneBy({ staticName });
  }

  findByIds(ids: number[]): Promise<AttributeEntity[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.attributes.find({ where: { id: In(ids) }, order: { displayOrder: 'ASC', id: 'ASC' } });
  }

  /** Labels of many attributes in one non-default language: attribute id -> label. */
  async translatedLabels(ids: number[], language: string): Promise<Map<number, string>> {
    const texts = await this.translations.load(ATTRIBUTE_TRANSLATION_TYPE, ids, language);
    const labels = new Map<number, string>();
    for (const [id, fields] of texts) {
      const label = fields.get('label');
      if (label !== undefined) labels.set(id, label);
    }
    return labels;
  }

  async nextDisplayOrder(): Promise<number> {
    const row = await this.attributes
      .createQueryBuilder('attribute')
      .select('MAX(attribute.display_order)', 'maximum')
      .getRawOne<{ maximum: number | string | null }>();
    return Number(row?.maximum ?? 0) + 1;
  }

  /**
   * Saves the attribute and, when given, its label in a non-default language, in one transaction;
   * `within` runs last in it, with the saved attribute (the owner records its events there).
   */
  async save(
    attribute: AttributeEntity,
    translatedLabel?: TranslatedText,
    within?: (manager: EntityManager, saved: AttributeEntity) => Promise<void>,
  ): Promise<AttributeEntity> {
    return this.attributes.manager.transaction(async (manager) => {
      const saved = await manager.getRepository(AttributeEntity).save(attribute);
      if (translatedLabel !== undefined) {
        await this.translations.save(
          ATTRIBUTE_TRANSLATION_TYPE,
          saved.id,
          'label',
          translatedLabel.language,
          translatedLabel.text,
          manager,
        );
      }
      await this.generations.bump(ATTRIBUTES_GENERATION, manager);
      await within?.(manager, saved);
      return saved;
    });
  }

  /**
   * Deletes the attribute; values, list values, keywords, group memberships and mappings cascade. The
   * keyword tree is flattened first: MySQL refuses to cascade through the keywords' own parent key.
   */
  async delete(id: number, within?: (manager: EntityManager) => Promise<void>): Promise<void> {
    await this.attributes.manager.transaction(async (manager) => {
      await this.translations.deleteAll(ATTRIBUTE_TRANSLATION_TYPE, id, manager);
      await manager.getRepository(KeywordEntity).update({ attributeId: id }, { parentId: null });
      await manager.getRepository(AttributeEntity).delete({ id });
      await this.generations.bump(ATTRIBUTES_GENERATION, manager);
      await within?.(manager);
    });
  }
}
