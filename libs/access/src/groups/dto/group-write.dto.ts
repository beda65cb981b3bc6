import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { PERMISSIONS } from '../../permissions/permission';

/** Permissions on one access level. Names and URLs are checked by the service, which names the bad one. */
export class AccessLevelPermissionsDto {
  @ApiProperty({ description: 'URL of an access level' })
  @IsString()
  accessLevelUrl: string;

  @ApiProperty({ enum: PERMISSIONS, isArray: true })
  @IsArray()
  @IsString({ each: true })
  permissions: string[];
}

/**
 * Body of POST and PUT on groups. Read-only fields (`url`, `id`) are dropped by the validation pipe.
 * On PUT an omitted field is left unchanged; a given `accessLevelPermissions` replaces all of them.
 */
export class GroupWriteDto {
  @ApiPropertyOptional({ description: 'required on create' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional({ type: [AccessLevelPermissionsDto], nullable: true })
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => AccessLevelPermissionsDto)
  accessLevelPermissions?: AccessLevelPermissionsDto[] | null;
}
