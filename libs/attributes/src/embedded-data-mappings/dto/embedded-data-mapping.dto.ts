import { TextField } from '@dam/http';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { EmbeddedDataTypes, MappingDirections } from '../../attribute-types';

export const TYPE_MESSAGE = `type must be one of ${EmbeddedDataTypes.join(', ')}`;
export const DIRECTION_MESSAGE = `mappingDirection must be one of ${MappingDirections.join(', ')}`;

/**
 * `POST` and `PUT` of an embedded-data mapping. The types are checked here; the service checks the values
 * (type and direction among the known ones, names not blank) and reads `attributeUrl` through `UrlService`.
 * On PUT omitted fields stay.
 */
export class EmbeddedDataMappingDto {
  @TextField(TYPE_MESSAGE, { enum: [...EmbeddedDataTypes], description: 'required on POST' })
  type?: string | null;

  @TextField('you must supply the tagName of the embedded data', {
    description: 'the tag, e.g. ImageDescription, Keywords, dc:title, Duration; required on POST',
  })
  tagName?: string | null;

  @TextField('displayName cannot be blank', { description: 'defaults to tagName' })
  displayName?: string | null;

  @TextField(DIRECTION_MESSAGE, { enum: ['embed-to-attribute', 'attribute-to-embed', 'both'] })
  mappingDirection?: string | null;

  @ApiPropertyOptional({ type: String, format: 'uri', description: 'URL of the attribute; required on POST' })
  @Allow()
  attributeUrl?: unknown;
}
