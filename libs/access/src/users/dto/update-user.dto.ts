import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsArray,
  IsBoolean,
  IsEmail,
  IsInt,
  IsOptional,
  IsString,
  Length,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
} from 'class-validator';

/**
 * The writable part of a user (PUT of the full representation; read-only fields such as `url` and `id`
 * are dropped by the validation pipe). An omitted field is left unchanged; null clears a text field.
 */
export class UpdateUserDto {
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @Length(1, 255)
  username?: string;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'email' })
  @ValidateIf((_object, value) => value !== undefined && value !== null && value !== '')
  @IsEmail({}, { message: 'emailAddress must be an email address' })
  @MaxLength(255)
  emailAddress?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  forename?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  surname?: string | null;

  @ApiPropertyOptional({ description: 'write-only; at least 8 characters' })
  @IsOptional()
  @IsString()
  @MinLength(8)
  @MaxLength(1024)
  password?: string;

  @ApiPropertyOptional({ type: [Number] })
  @IsOptional()
  @IsArray()
  @IsInt({ each: true })
  @Min(1, { each: true })
  groupIds?: number[];

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  isAdmin?: boolean;
}
