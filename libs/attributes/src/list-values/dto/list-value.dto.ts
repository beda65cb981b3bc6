import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';

/**
 * `POST /rest/attributes/{id}/list-attribute-values` (spec 2.10). Checked by the service, so that a
 * missing or blank value gets the spec's exact message; `url` is ignored.
 */
export class CreateListValueDto {
  @ApiProperty({ type: String, description: 'required, non-empty' })
  @Allow()
  value?: unknown;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'shown instead of value on the asset detail view; may be empty',
  })
  @Allow()
  additionalValue?: unknown;
}

/** `POST /rest/list-attribute-values`: the same, naming the attribute by `attributeUrl` or `attributeId`. */
export class CreateListValueForAnyAttributeDto extends CreateListValueDto {
  @ApiPropertyOptional({
    type: String,
    format: 'uri',
    description: 'URL of a list attribute; or give attributeId',
  })
  @Allow()
  attributeUrl?: unknown;

  @ApiPropertyOptional({
    oneOf: [{ type: 'integer' }, { type: 'string' }],
    description: 'id of a list attribute; or give attributeUrl',
  })
  @Allow()
  attributeId?: unknown;
}
