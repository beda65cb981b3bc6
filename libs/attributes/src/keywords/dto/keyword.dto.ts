import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';

/**
 * `POST /rest/keywords` and `PUT /rest/keywords/{id}`; checked by the service. On PUT an omitted field
 * stays as it is; `parent: null` makes the keyword top-level.
 */
export class KeywordDto {
  @ApiPropertyOptional({
    type: String,
    format: 'uri',
    description: 'URL of a keywords-type attribute; required on POST',
  })
  @Allow()
  attributeUrl?: unknown;

  @ApiPropertyOptional({ type: String, description: 'required on POST' })
  @Allow()
  name?: unknown;

  @ApiPropertyOptional({
    type: String,
    description: 'URL of the parent keyword (same attribute), or null for top level',
    nullable: true,
  })
  @Allow()
  parent?: unknown;

  @ApiPropertyOptional({ type: [String] })
  @Allow()
  synonyms?: unknown;
}
