import { Injectable } from '@nestjs/common';
import { CacheGenerations, GenerationCached, GenerationLru } from '@dam/database';
import { LanguageService } from '@dam/i18n';
import { AssetType } from './asset-types/asset-type';
import { AssetTypesRepository } from './asset-types/asset-types.repository';
import {
  AttributeDefinition,
  AttributeType,
  AttributeTypeId,
  isAttributeTypeId,
  ListValue,
} from './attribute-types';
import { ATTRIBUTES_GENERATION, AttributesRepository } from './attributes/attributes.repository';
import { EmbeddedDataMappingsRepository } from './embedded-data-mappings/embedded-data-mappings.repository';
import { AttributeEntity } from './entities/attribute.entity';
import { ListValuesRepository } from './list-values/list-values.repository';

export interface EmbeddedDataMappingDefinition {
  type: string;
  tagName: string;
  attributeId: number;
  mappingDirection: string;
}

/** An asset type as other areas see it. */
export type AssetTypeDefinition = AssetType;

/**
 * What other areas (assets above all) need to know about attributes: their definitions with labels in a
 * language, list values, embedded-data mappings and asset types. Read-only; each call is a fixed number
 * of queries regardless of how many attributes exist.
 */
@Injectable()
export class AttributesCatalog {
  /** Every attribute's definitions per language (a handful of languages at most). */
  private readonly definitions: GenerationLru<string, readonly AttributeDefinition[]>;
  private readonly displayIds: GenerationCached<readonly number[]>;
  private readonly types: GenerationCached<readonly AssetTypeDefinition[]>;
  private readonly mappingList: GenerationCached<readonly EmbeddedDataMappingDefinition[]>;

  constructor(
    private readonly attributes: AttributesRepository,
    private readonly listValuesRepository: ListValuesRepository,
    private readonly mappings: EmbeddedDataMappingsRepository,
    private readonly assetTypesRepository: AssetTypesRepository,
    private readonly languages: LanguageService,
    generations: CacheGenerations,
  ) {
    const names = [ATTRIBUTES_GENERATION];
    this.definitions = new GenerationLru(generations, names, { capacity: 64 });
    this.displayIds = new GenerationCached(generations, names, async () =>
      Object.freeze(await this.attributes.displayAttributeIds()),
    );
    this.types = new GenerationCached(generations, names, async () => {
      const types = await this.assetTypesRepository.findAll();
      return Object.freeze(types.map(({ id, name }) => Object.freeze({ id, name })));
    });
    this.mappingList = new GenerationCached(generations, names, async () => {
      const mappings = await this.mappings.findAll();
      return Object.freeze(
        mappings.map(({ type, tagName, attributeId, mappingDirection }) =>
          Object.freeze({ type, tagName, attributeId, mappingDirection }),
        ),
      );
    });
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

  async listValues(attributeId: number): Promise<ListValue[]> {
    const values = await this.listValuesRepository.find(attributeId);
    return values.map(({ id, value, additionalValue }) => ({ id, attributeId, value, additionalValue }));
  }

  async embeddedDataMappings(): Promise<EmbeddedDataMappingDefinition[]> {
    return [...(await this.mappingList.get())];
  }

  /** The attributes shown in summaries: those of the first display attribute group, in its order. */
  async displayAttributeIds(): Promise<number[]> {
    return [...(await this.displayIds.get())];
  }

  async assetTypes(): Promise<AssetTypeDefinition[]> {
    return [...(await this.types.get())];
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
