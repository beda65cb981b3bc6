import { Injectable } from '@nestjs/common';
import { CacheGenerations, GenerationCached } from '@dam/database';
import { AssetType } from './asset-types/asset-type';
import { AssetTypesRepository } from './asset-types/asset-types.repository';
import { AttributeDefinition, ListValue } from './attribute-types';
import { AttributeDefinitions } from './attributes/attribute-definitions';
import { ATTRIBUTES_GENERATION, AttributesRepository } from './attributes/attributes.repository';
import { EmbeddedDataMappingsRepository } from './embedded-data-mappings/embedded-data-mappings.repository';
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
  private readonly displayIds: GenerationCached<readonly number[]>;
  private readonly types: GenerationCached<readonly AssetTypeDefinition[]>;
  private readonly mappingList: GenerationCached<readonly EmbeddedDataMappingDefinition[]>;

  constructor(
    private readonly definitions: AttributeDefinitions,
    private readonly attributes: AttributesRepository,
    private readonly listValuesRepository: ListValuesRepository,
    private readonly mappings: EmbeddedDataMappingsRepository,
    private readonly assetTypesRepository: AssetTypesRepository,
    generations: CacheGenerations,
  ) {
    const names = [ATTRIBUTES_GENERATION];
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
  all(language: string): Promise<AttributeDefinition[]> {
    return this.definitions.all(language);
  }

  /** `all(language)` when held in memory and current, without a promise (the hot read's path). */
  heldAll(language: string): readonly AttributeDefinition[] | undefined {
    return this.definitions.held(language);
  }

  byId(id: number, language: string): Promise<AttributeDefinition | undefined> {
    return this.definitions.byId(id, language);
  }

  /** Ordered by displayOrder, then id; unknown ids are left out. */
  byIds(ids: number[], language: string): Promise<AttributeDefinition[]> {
    return this.definitions.byIds(ids, language);
  }

  byStaticName(name: string, language: string): Promise<AttributeDefinition | undefined> {
    return this.definitions.byStaticName(name, language);
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
}
