import { Injectable } from '@nestjs/common';
import { CacheGenerations, GenerationLru } from '@dam/database';
import { LanguageService } from '@dam/i18n';
import { AttributeDefinition, AttributeType, AttributeTypeId, isAttributeTypeId } from '../attribute-types';
import { AttributeEntity } from '../entities/attribute.entity';
import { ATTRIBUTES_GENERATION, AttributesRepository } from './attributes.repository';

/**
 * Attributes' definitions with labels in a language, kept per language while the 'attributes'
 * generation stands. The catalog offers them to other areas; this lib's services read them here.
 */
@Injectable()
export class AttributeDefinitions {
  /** Every attribute's definitions per language (a handful of languages at most). */
  private readonly definitions: GenerationLru<string, readonly AttributeDefinition[]>;

  constructor(
    private readonly attributes: AttributesRepository,
    private readonly languages: LanguageService,
    generations: CacheGenerations,
  ) {
    this.definitions = new GenerationLru(generations, [ATTRIBUTES_GENERATION], { capacity: 64 });
  }

  /** Ordered by displayOrder, then id. From memory while the 'attributes' generation stands. */
  async all(language: string): Promise<AttributeDefinition[]> {
    const definitions = await this.definitions.get(language, async () =>
      Object.freeze(
        (await this.define(await this.attributes.findAll(), language)).map((definition) =>
          Object.freeze(definition),
        ),
      ),
    );
    return [...definitions];
  }

  /** Every definition in `language` when held in memory and current, without a promise (else `all`). */
  held(language: string): readonly AttributeDefinition[] | undefined {
    return this.definitions.peek(language);
  }

  async byId(id: number, language: string): Promise<AttributeDefinition | undefined> {
    const attribute = await this.attributes.findById(id);
    return attribute === null ? undefined : (await this.define([attribute], language))[0];
  }

  /** Ordered by displayOrder, then id; unknown ids are left out. */
  async byIds(ids: number[], language: string): Promise<AttributeDefinition[]> {
    return this.define(await this.attributes.findByIds([...new Set(ids)]), language);
  }

  async byStaticName(name: string, language: string): Promise<AttributeDefinition | undefined> {
    const attribute = await this.attributes.findByStaticName(name);
    return attribute === null ? undefined : (await this.define([attribute], language))[0];
  }

  /** Definitions with labels in `language`, falling back to the default language's label. */
  async define(attributes: AttributeEntity[], language: string): Promise<AttributeDefinition[]> {
    const translated = this.languages.isDefault(language)
      ? new Map<number, string>()
      : await this.attributes.translatedLabels(
          attributes.map((attribute) => attribute.id),
          language,
        );
    return attributes.map((attribute) => ({
      id: attribute.id,
      label: translated.get(attribute.id) ?? attribute.label,
      staticName: attribute.staticName,
      typeId: typeIdOf(attribute),
      isReadOnly: attribute.isReadOnly,
      isKeywordSearchable: attribute.isKeywordSearchable,
      displayOrder: attribute.displayOrder,
    }));
  }
}

/** Type ids are validated on write; a row outside the contract would be a bug, shown as plain text. */
function typeIdOf(attribute: AttributeEntity): AttributeTypeId {
  return isAttributeTypeId(attribute.typeId) ? attribute.typeId : AttributeType.Text;
}
