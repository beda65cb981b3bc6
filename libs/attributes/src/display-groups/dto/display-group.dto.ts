import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';

/**
 * `POST` and `PUT` of a display attribute group; checked by the service. `attributes` lists attribute
 * URLs, or objects with `url` or `id` (the shape GET returns); on PUT an omitted field stays as it is.
 */
export class DisplayGroupDto {
  @ApiPropertyOptional({ type: String, description: 'required on POST' })
  @Allow()
  name?: unknown;

  @ApiPropertyOptional({ type: 'integer' })
  @Allow()
  displayOrder?: unknown;

  @ApiPropertyOptional({
    type: 'array',
    items: {
      oneOf: [
        { type: 'string', format: 'uri' },
        { type: 'object', properties: { id: { type: 'integer' }, url: { type: 'string', format: 'uri' } } },
      ],
    },
    description: 'attribute URLs or {id} / {url} objects, in display order',
  })
  @Allow()
  attributes?: unknown;
}
