import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** An access level named by its id: `{id}` (other fields are ignored). */
export class AccessLevelRefSchema {
  @ApiProperty({ example: 1 })
  id: number;
}

/** One attribute value to write; a null value clears the attribute. */
export class AttributeValueWriteSchema {
  @ApiProperty({ oneOf: [{ type: 'integer' }, { type: 'string' }], example: 3 })
  id: number | string;
  @ApiProperty({ type: String, nullable: true })
  value: string | null;
}

/** An attribute value as `GET /rest/assets/{id}` shows it. */
export class AssetAttributeSchema {
  @ApiProperty({ description: 'the attribute id, as a string' })
  id: string;
  @ApiProperty()
  name: string;
  @ApiProperty()
  value: string;
}

/** OpenAPI schema of `AssetRepresentation` (spec 2.5). */
export class AssetSchema {
  @ApiProperty({ format: 'uri' })
  url: string;
  @ApiProperty()
  id: number;
  @ApiProperty({ description: 'the asset type name' })
  type: string;
  @ApiProperty({ description: 'comma-separated access level ids' })
  accessLevelIds: string;
  @ApiProperty()
  submitted: boolean;
  @ApiProperty()
  approved: boolean;
  @ApiProperty()
  archived: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    pattern: '^[0-9a-f]{64}$',
    description: 'lower-case hex SHA-256 of the current content; null without content',
  })
  contentSha256: string | null;
  @ApiProperty({ type: [String], description: 'URLs of the parent assets' })
  parents: string[];
  @ApiProperty({ type: [AssetAttributeSchema] })
  attributes: AssetAttributeSchema[];
  @ApiProperty({ format: 'uri' })
  contentUrl: string;
  @ApiProperty({ format: 'uri' })
  contentUrlUrl: string;
  @ApiProperty({ format: 'uri' })
  displayUrl: string;
  @ApiProperty({ format: 'uri' })
  thumbnailUrl: string;
  @ApiProperty({ format: 'uri' })
  previewUrl: string;
  @ApiProperty({ format: 'uri' })
  conversionUrl: string;
  @ApiProperty({ format: 'uri' })
  unwatermarkedLargeImageUrl: string;
  @ApiPropertyOptional({
    format: 'uri',
    description:
      'Videos only: 303 to the web proxy (MP4, H.264/AAC, at most 720p) once it is made, 404 before',
  })
  previewVideoUrl?: string;
  @ApiPropertyOptional({ format: 'uri' })
  assetTypeUrl?: string;
}

/** One entry of the pending-approval queues. */
export class PendingApprovalSchema {
  @ApiProperty({ format: 'uri' })
  assetInstanceUrl: string;
  @ApiProperty({ format: 'uri' })
  assetApprovalUrl: string;
}
