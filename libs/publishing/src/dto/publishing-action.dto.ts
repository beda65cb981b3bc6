import { TextField } from '@dam/http';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, ValidateIf } from 'class-validator';

export const MISSING_NAME =
  'you must supply a name (to create an action) or a publishingActionId (to run one)';

/**
 * `POST /rest/publishing-actions`: `{name, criteria}` creates an action, `{publishingActionId}` runs one.
 * The name's type is checked here. The id (a number or its text) is read by `parseOptionalId`, the
 * criteria (a query string or an object) by `canonicalCriteria`, both in the service.
 */
export class PublishingActionPostDto {
  @ApiPropertyOptional({
    oneOf: [{ type: 'integer' }, { type: 'string' }],
    description: 'the id of the action to run',
  })
  @Allow()
  publishingActionId?: unknown;

  @TextField(MISSING_NAME, { description: 'required when creating; at most 255 characters' })
  @ValidateIf((body: PublishingActionPostDto) => body.publishingActionId === undefined)
  name?: string | null;

  @ApiPropertyOptional({
    oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: { type: 'string' } }],
    description: 'required when creating: an asset-search query string or an object of its parameters',
  })
  @Allow()
  criteria?: unknown;
}
