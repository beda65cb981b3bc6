import { Injectable } from '@nestjs/common';
import { UrlService, xmlMapping } from '@dam/http';
import { AttributeDefinition, AttributeType } from '../attribute-types';

export interface AttributeRepresentation extends AttributeDefinition {
  url: string;
  /** Only on list attributes (typeId 6); null on the others. */
  listValuesUrl: string | null;
  /** Only on keywords attributes (typeId 7); null on the others. */
  keywordsUrl: string | null;
}

/** XML (DESIGN §3): `<attribute>`. */
export const ATTRIBUTE_XML = xmlMapping('attribute');

@Injectable()
export class AttributeMapper {
  constructor(private readonly urls: UrlService) {}

  url(id: number): string {
    return this.urls.rest('attributes', id);
  }

  toRepresentation(attribute: AttributeDefinition): AttributeRepresentation {
    return {
      url: this.url(attribute.id),
      id: attribute.id,
      label: attribute.label,
      staticName: attribute.staticName,
      typeId: attribute.typeId,
      isReadOnly: attribute.isReadOnly,
      isKeywordSearchable: attribute.isKeywordSearchable,
      displayOrder: attribute.displayOrder,
      listValuesUrl:
        attribute.typeId === AttributeType.List
          ? this.urls.rest('attributes', attribute.id, 'list-attribute-values')
          : null,
      keywordsUrl:
        attribute.typeId === AttributeType.Keywords
          ? this.urls.rest('attributes', attribute.id, 'keywords')
          : null,
    };
  }
}
