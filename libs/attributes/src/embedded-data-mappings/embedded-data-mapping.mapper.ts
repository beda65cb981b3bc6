import { Injectable } from '@nestjs/common';
import { UrlService, xmlMapping } from '@dam/http';
import { EmbeddedDataMappingView } from './embedded-data-mappings.service';

export interface EmbeddedDataMappingRepresentation {
  url: string;
  id: number;
  type: string;
  displayName: string;
  tagName: string;
  mappingDirection: string;
  attributeUrl: string;
  attributeLabel: string;
}

/** XML (DESIGN §3): `<embeddedDataMapping>`. */
export const EMBEDDED_DATA_MAPPING_XML = xmlMapping('embeddedDataMapping');

@Injectable()
export class EmbeddedDataMappingMapper {
  constructor(private readonly urls: UrlService) {}

  url(id: number): string {
    return this.urls.rest('embedded-data-mappings', id);
  }

  toRepresentation({ mapping, attribute }: EmbeddedDataMappingView): EmbeddedDataMappingRepresentation {
    return {
      url: this.url(mapping.id),
      id: mapping.id,
      type: mapping.type,
      displayName: mapping.displayName,
      tagName: mapping.tagName,
      mappingDirection: mapping.mappingDirection,
      attributeUrl: this.urls.rest('attributes', mapping.attributeId),
      attributeLabel: attribute?.label ?? '',
    };
  }
}
