import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';

/** `POST` and `PUT` of an embedded-data mapping; checked by the service. On PUT omitted fields stay. */
export class EmbeddedDataMappingDto {
  @ApiPropertyOptional({ type: String, enum: ['EXIF', 'IPTC', 'XMP'], description: 'required on POST' })
  @Allow()
  type?: unknown;

  @ApiPropertyOptional({
    type: String,
    description: 'the tag, e.g. ImageDescription, Keywords, dc:title; required on POST',
  })
  @Allow()
  tagName?: unknown;

  @ApiPropertyOptional({ type: String, description: 'defaults to tagName' })
  @Allow()
  displayName?: unknown;

  @ApiPropertyOptional({ type: String, enum: ['embed-to-attribute', 'attribute-to-embed', 'both'] })
  @Allow()
  mappingDirection?: unknown;

  @ApiPropertyOptional({ type: String, format: 'uri', description: 'URL of the attribute; required on POST' })
  @Allow()
  attributeUrl?: unknown;
}
