import { ApiProperty } from '@nestjs/swagger';

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
  @ApiProperty({ format: 'uri' })
  target: string;
  @ApiProperty({ type: String, nullable: true })
  requestId: string | null;
  @ApiProperty({
    type: Object,
    nullable: true,
    description: '{field: {before, after}}; an attribute keyed by its label',
  })
  changes: Record<string, { before: unknown; after: unknown }> | null;
}
