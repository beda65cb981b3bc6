import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';

/**
 * The writable fields of an access level (spec 2.1), body of POST and PUT. Read-only fields of the
 * representation (url, id, imageUrl, children, count, isStatic) are dropped by the validation pipe, so
 * a GET body can be PUT back unchanged. On PUT an omitted (or null) boolean is left as it is.
 */
export class AccessLevelWriteDto {
  @ApiPropertyOptional({ type: String, nullable: true, description: 'required and non-empty on create' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  name?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'null or empty clears it' })
  @IsOptional()
  @IsString()
  @MaxLength(10_000)
  description?: string | null;

  @ApiPropertyOptional({
    type: String,
    format: 'uri',
    nullable: true,
    description: 'URL of the parent access level; null for top level',
  })
  @IsOptional()
  @IsString()
  parent?: string | null;

  @ApiPropertyOptional({ type: Boolean, nullable: true, default: false })
  @IsOptional()
  @IsBoolean()
  isAlwaysAssignable?: boolean | null;

  @ApiPropertyOptional({
    type: Boolean,
    nullable: true,
    description: 'default false below the top level; always true at the top level',
  })
  @IsOptional()
  @IsBoolean()
  hasPermissions?: boolean | null;

  @ApiPropertyOptional({ type: Boolean, nullable: true, default: false })
  @IsOptional()
  @IsBoolean()
  isSelectedOnLoad?: boolean | null;

  @ApiPropertyOptional({ type: Boolean, nullable: true, default: true })
  @IsOptional()
  @IsBoolean()
  isBrowsable?: boolean | null;

  @ApiPropertyOptional({ type: Boolean, nullable: true, default: false })
  @IsOptional()
  @IsBoolean()
  showPromotedItems?: boolean | null;

  @ApiPropertyOptional({ type: Boolean, nullable: true, default: false })
  @IsOptional()
  @IsBoolean()
  showRecentItems?: boolean | null;
}

/** One entry of PUT /rest/access-levels: a full representation that names its level by `url`. */
export class AccessLevelBulkWriteDto extends AccessLevelWriteDto {
  @ApiProperty({ description: 'URL of the access level to update' })
  @IsString()
  url: string;
}
