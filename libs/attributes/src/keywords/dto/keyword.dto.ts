import { ListField, TextField } from '@dam/http';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';

/**
 * `POST /rest/keywords` and `PUT /rest/keywords/{id}`. The types are checked here; the URLs are read by
 * `UrlService` (which names what a value is not), the name and synonyms' text by the service (required,
 * not blank). On PUT an omitted field stays as it is; `parent: null` makes the keyword top-level.
 */
export class KeywordDto {
  @ApiPropertyOptional({
    type: String,
    format: 'uri',
    description: 'URL of a keywords-type attribute; required on POST',
  })
  @Allow()
  attributeUrl?: unknown;

  @TextField('you must supply a name for the keyword', { description: 'required on POST' })
  name?: string | null;

  @ApiPropertyOptional({
    type: String,
    description: 'URL of the parent keyword (same attribute), or null for top level',
    nullable: true,
  })
  @Allow()
  parent?: unknown;

  @ListField('synonyms must be an array of text')
  synonyms?: unknown[] | null;
}
