import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';

/**
 * `PUT .../checkout` (spec 2.11). The ids may come as numbers or their text, so they are read by
 * `parseOptionalId` in the service (docs/architecture.md, "Inside a lib").
 */
export class UpdateCheckoutDto {
  @ApiPropertyOptional({
    oneOf: [{ type: 'integer' }, { type: 'string' }],
    description: 'a user id checks out to that user; 0 or less checks in; omitted: the actor',
  })
  @Allow()
  userId?: unknown;
}

/** `POST /rest/checkout` and `PUT /rest/checkout`: the asset is named in the body. */
export class NamedCheckoutDto extends UpdateCheckoutDto {
  @ApiPropertyOptional({ oneOf: [{ type: 'integer' }, { type: 'string' }], description: 'id of the asset' })
  @Allow()
  assetId?: unknown;
}
