import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';

/**
 * `POST /rest/publishing-actions`: `{name, criteria}` creates an action, `{publishingActionId}` runs one.
 * Only the fields are declared (others are stripped); the service checks them, with exact messages.
 */
export class PublishingActionPostDto {
  @ApiPropertyOptional({
    oneOf: [{ type: 'integer' }, { type: 'string' }],
    description: 'the id of the action to run',
  })
  @Allow()
  publishingActionId?: unknown;

  @ApiPropertyOptional({ type: String, description: 'required when creating; at most 255 characters' })
  @Allow()
  name?: unknown;

  @ApiPropertyOptional({
    oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: { type: 'string' } }],
    description: 'required when creating: an asset-search query string or an object of its parameters',
  })
  @Allow()
  criteria?: unknown;
}
