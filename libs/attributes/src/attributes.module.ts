import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CacheGenerationsModule } from '@dam/database';
import { RootLinks } from '@dam/http';
import { AssetTypesController } from './asset-types/asset-types.controller';
import { AssetTypesRepository } from './asset-types/asset-types.repository';
import { AssetTypesService } from './asset-types/asset-types.service';
import { AttributesCatalog } from './attributes-catalog';
import { AttributeDefinitions } from './attributes/attribute-definitions';
import { AttributeMapper } from './attributes/attribute.mapper';
import { AttributesController } from './attributes/attributes.controller';
import { AttributesRepository } from './attributes/attributes.repository';
import { AttributesService } from './attributes/attributes.service';
import { DisplayGroupMapper } from './display-groups/display-group.mapper';
import { DisplayGroupsController } from './display-groups/display-groups.controller';
import { DisplayGroupsRepository } from './display-groups/display-groups.repository';
import { DisplayGroupsService } from './display-groups/display-groups.service';
import { EmbeddedDataMappingMapper } from './embedded-data-mappings/embedded-data-mapping.mapper';
import { EmbeddedDataMappingsController } from './embedded-data-mappings/embedded-data-mappings.controller';
import { EmbeddedDataMappingsRepository } from './embedded-data-mappings/embedded-data-mappings.repository';
import { EmbeddedDataMappingsService } from './embedded-data-mappings/embedded-data-mappings.service';
import { AssetTypeEntity } from './entities/asset-type.entity';
import { AttributeEntity } from './entities/attribute.entity';
import { DisplayAttributeGroupMemberEntity } from './entities/display-attribute-group-member.entity';
import { DisplayAttributeGroupEntity } from './entities/display-attribute-group.entity';
import { EmbeddedDataMappingEntity } from './entities/embedded-data-mapping.entity';
import { KeywordSynonymEntity } from './entities/keyword-synonym.entity';
import { KeywordEntity } from './entities/keyword.entity';
import { ListAttributeValueEntity } from './entities/list-attribute-value.entity';
import { KeywordMapper } from './keywords/keyword.mapper';
import { KeywordsController } from './keywords/keywords.controller';
import { KeywordsRepository } from './keywords/keywords.repository';
import { KeywordsService } from './keywords/keywords.service';
import { ListValueMapper } from './list-values/list-value.mapper';
import {
  AttributeListValuesController,
  ListAttributeValuesController,
} from './list-values/list-values.controller';
import { ListValuesRepository } from './list-values/list-values.repository';
import { ListValuesService } from './list-values/list-values.service';

/** Attributes, list values, keywords, display attribute groups, asset types and embedded-data mappings. */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      AttributeEntity,
      ListAttributeValueEntity,
      KeywordEntity,
      KeywordSynonymEntity,
      DisplayAttributeGroupEntity,
      DisplayAttributeGroupMemberEntity,
      AssetTypeEntity,
      EmbeddedDataMappingEntity,
    ]),
    CacheGenerationsModule,
  ],
  controllers: [
    AttributesController,
    AttributeListValuesController,
    ListAttributeValuesController,
    KeywordsController,
    DisplayGroupsController,
    AssetTypesController,
    EmbeddedDataMappingsController,
  ],
  providers: [
    AttributesRepository,
    AttributeDefinitions,
    AttributesCatalog,
    AttributesService,
    AttributeMapper,
    ListValuesRepository,
    ListValuesService,
    ListValueMapper,
    KeywordsRepository,
    KeywordsService,
    KeywordMapper,
    DisplayGroupsRepository,
    DisplayGroupsService,
    DisplayGroupMapper,
    AssetTypesRepository,
    AssetTypesService,
    EmbeddedDataMappingsRepository,
    EmbeddedDataMappingsService,
    EmbeddedDataMappingMapper,
  ],
  exports: [AttributesCatalog, AssetTypesService],
})
export class AttributesModule implements OnModuleInit {
  constructor(private readonly rootLinks: RootLinks) {}

  onModuleInit(): void {
    this.rootLinks.register('attributesUrl', 'attributes');
    this.rootLinks.register('listAttributeValuesUrl', 'list-attribute-values');
    this.rootLinks.register('keywordsUrl', 'keywords');
    this.rootLinks.register('displayAttributeGroupUrl', 'display-attribute-groups');
    this.rootLinks.register('assetTypesUrl', 'asset-types');
    this.rootLinks.register('embeddedDataMappingsUrl', 'embedded-data-mappings');
  }
}
