import { Injectable } from '@nestjs/common';
import { UrlService, xmlMapping } from '@dam/http';
import { ListAttributeValueEntity } from '../entities/list-attribute-value.entity';

/** Spec 2.10. */
export interface ListValueRepresentation {
  url: string;
  value: string;
  additionalValue: string | null;
}

/** XML (DESIGN §3): `<listAttributeValue>` (also the items of `<listAttributeValues>`). */
export const LIST_VALUE_XML = xmlMapping('listAttributeValue');

@Injectable()
export class ListValueMapper {
  constructor(private readonly urls: UrlService) {}

  url(id: number): string {
    return this.urls.rest('list-attribute-values', id);
  }

  toRepresentation(value: ListAttributeValueEntity): ListValueRepresentation {
    return { url: this.url(value.id), value: value.value, additionalValue: value.additionalValue };
  }
}
