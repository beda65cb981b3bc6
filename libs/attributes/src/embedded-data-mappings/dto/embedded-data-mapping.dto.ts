import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';

/** `POST` and `PUT` of an embedded-data mapping; checked by the service. On PUT omitted fields stay. */
export class EmbeddedDataMappingDto {
  @ApiPropertyOptional({ enum: ['EXIF', 'IPTC', 'XMP'], description: 'required on POST' })
  @Allow()
  type?: unknown;

  @ApiPropertyOptional({
    description: 'the tag, e.g. ImageDescription, Keywords, dc:title; required on POST',
  })
  @Allow()
  tagName?: unknown;

  @ApiPropertyOptional({ description: 'defaults to tagName' })
  @Allow()
  displayName?: unknown;

  @ApiPropertyOptional({ enum: ['embed-to-attribute', 'attribute-to-embed', 'both'] })
  @Allow()
  mappingDirection?: unknown;

  @ApiPropertyOptional({ description: 'URL of the attribute; required on POST' })
  @Allow()
  attributeUrl?: unknown;
}
