import { NamedResourceSchema, ResourceSchema } from '@dam/http';
import { ApiProperty } from '@nestjs/swagger';
import { EmbeddedDataTypes } from './attribute-types';

/** OpenAPI schema of `AttributeRepresentation`. */
export class AttributeSchema extends ResourceSchema {
  @ApiProperty({ description: 'in the language asked for (Accept-Language)' })
  label: string;
  @ApiProperty({ type: String, nullable: true, description: 'system attributes only' })
  staticName: string | null;
  @ApiProperty({ description: 'the attribute type (6: list, 7: keywords, ...)' })
  typeId: number;
  @ApiProperty()
  isReadOnly: boolean;
  @ApiProperty()
  isKeywordSearchable: boolean;
  @ApiProperty()
  displayOrder: number;
  @ApiProperty({ type: String, nullable: true, format: 'uri', description: 'list attributes only' })
  listValuesUrl: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'uri', description: 'keywords attributes only' })
  keywordsUrl: string | null;
}

/** OpenAPI schema of `ListValueRepresentation`. */
export class ListValueSchema {
  @ApiProperty({ format: 'uri' })
  url: string;
  @ApiProperty()
  value: string;
  @ApiProperty({ type: String, nullable: true })
  additionalValue: string | null;
}

/** OpenAPI schema of `KeywordRepresentation`. */
export class KeywordSchema extends NamedResourceSchema {
  @ApiProperty({ format: 'uri' })
  attributeUrl: string;
  @ApiProperty({ type: String, nullable: true, format: 'uri' })
  parent: string | null;
  @ApiProperty({ type: () => [KeywordSchema] })
  children: KeywordSchema[];
  @ApiProperty({ type: [String] })
  synonyms: string[];
}

class DisplayGroupAttributeSchema {
  @ApiProperty()
  id: number;
  @ApiProperty({ format: 'uri' })
  url: string;
  @ApiProperty()
  label: string;
}

/** OpenAPI schema of `DisplayGroupRepresentation`. */
export class DisplayGroupSchema {
  @ApiProperty({ format: 'uri' })
  url: string;
  @ApiProperty()
  id: number;
  @ApiProperty()
  name: string;
  @ApiProperty()
  displayOrder: number;
  @ApiProperty({ type: [DisplayGroupAttributeSchema] })
  attributes: DisplayGroupAttributeSchema[];
}

/** OpenAPI schema of `AssetTypeRepresentation`. */
export class AssetTypeSchema {
  @ApiProperty({ format: 'uri' })
  url: string;
  @ApiProperty()
  id: number;
  @ApiProperty()
  name: string;
}

/** OpenAPI schema of `EmbeddedDataMappingRepresentation`. */
export class EmbeddedDataMappingSchema {
  @ApiProperty({ format: 'uri' })
  url: string;
  @ApiProperty()
  id: number;
  @ApiProperty({ enum: [...EmbeddedDataTypes] })
  type: string;
  @ApiProperty()
  displayName: string;
  @ApiProperty()
  tagName: string;
  @ApiProperty({ enum: ['embed-to-attribute', 'attribute-to-embed', 'both'] })
  mappingDirection: string;
  @ApiProperty({ format: 'uri' })
  attributeUrl: string;
  @ApiProperty()
  attributeLabel: string;
}
