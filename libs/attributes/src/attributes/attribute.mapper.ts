import { Injectable } from '@nestjs/common';
import { UrlService } from '@dam/platform';
import { AttributeDefinition } from '../attribute-types';

export interface AttributeRepresentation extends AttributeDefinition {
  url: string;
  listValuesUrl: string;
  keywordsUrl: string;
}

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
      listValuesUrl: this.urls.rest('attributes', attribute.id, 'list-attribute-values'),
      keywordsUrl: this.urls.rest('attributes', attribute.id, 'keywords'),
    };
  }
}
