import { ApiProperty, getSchemaPath } from '@nestjs/swagger';

/** A value as stored (text), a flag, or a list of ids (levels, categories, parents). */
const VALUE = [
  { type: 'string', nullable: true },
  { type: 'boolean' },
  { type: 'array', items: { type: 'integer' } },
];

/** One changed field of an audit entry. */
export class FieldChangeSchema {
  @ApiProperty({ description: 'the value before the change (null: none)', oneOf: VALUE })
  before: unknown;
  @ApiProperty({ description: 'the value after the change (null: removed)', oneOf: VALUE })
  after: unknown;
}

/** OpenAPI schema of `AuditEntryRepresentation`. */
export class AuditEntrySchema {
  @ApiProperty()
  id: number;
  @ApiProperty({ format: 'date-time' })
  at: string;
  @ApiProperty({ type: String, nullable: true, format: 'uri', description: 'the user (null: a job)' })
  actor: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'the OAuth client of the request' })
  clientId: string | null;
  @ApiProperty({ description: 'named like the events: asset.updated, asset.content.replaced, ...' })
  action: string;
  @ApiProperty({
    type: String,
    nullable: true,
    format: 'uri',
    description: 'what the action was on (null: a failed login under a username no user has)',
  })
  target: string | null;
  @ApiProperty({ type: String, nullable: true })
  requestId: string | null;
  @ApiProperty({
    type: 'object',
    nullable: true,
    additionalProperties: { $ref: getSchemaPath(FieldChangeSchema) },
    description:
      '{field: {before, after}}; an attribute keyed by its label (id lists for levels and categories)',
  })
  changes: Record<string, { before: unknown; after: unknown }> | null;
}
