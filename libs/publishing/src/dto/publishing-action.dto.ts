import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';

/**
 * `POST /rest/publishing-actions`: `{name, criteria}` creates an action, `{publishingActionId}` runs one.
 * Only the fields are declared (others are stripped); the service checks them, with exact messages.
 */
export class PublishingActionPostDto {
  @ApiPropertyOptional({ description: 'the id of the action to run' })
  @Allow()
  publishingActionId?: unknown;

  @ApiPropertyOptional({ description: 'required when creating; at most 255 characters' })
  @Allow()
  name?: unknown;

  @ApiPropertyOptional({
    description: 'required when creating: an asset-search query string or an object of its parameters',
  })
  @Allow()
  criteria?: unknown;
}
