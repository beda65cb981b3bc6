import { ListField, TextField } from '@dam/http';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsDisplayOrder } from '../../rules';

/**
 * `POST` and `PUT` of a display attribute group. The types are checked here; the service checks the name's
 * text and reads the attributes, which are attribute URLs or objects with `url` or `id` (the shape GET
 * returns), through `UrlService`. On PUT an omitted field stays as it is.
 */
export class DisplayGroupDto {
  @TextField('you must supply a name for the display attribute group', { description: 'required on POST' })
  name?: string | null;

  @ApiPropertyOptional({ type: 'integer' })
  @IsDisplayOrder()
  displayOrder?: number | null;

  @ListField('attributes must be an array of attribute URLs or {id} objects', {
    type: 'array',
    items: {
      oneOf: [
        { type: 'string', format: 'uri' },
        { type: 'object', properties: { id: { type: 'integer' }, url: { type: 'string', format: 'uri' } } },
      ],
    },
    description: 'attribute URLs or {id} / {url} objects, in display order',
  })
  attributes?: unknown[] | null;
}
