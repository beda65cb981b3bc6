import { TextField } from '@dam/http';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';

/**
 * `POST /rest/attributes/{id}/list-attribute-values` (spec 2.10). The types are checked here; the service
 * checks the value itself, so that a missing or blank value gets the spec's exact message; `url` is ignored.
 */
export class CreateListValueDto {
  @TextField('the list value must be text', { required: true, description: 'required, non-empty' })
  value?: string | null;

  @TextField('additionalValue must be text', {
    nullable: true,
    description: 'shown instead of value on the asset detail view; may be empty',
  })
  additionalValue?: string | null;
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
