import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';

/**
 * Body of POST /rest/categories and PUT /rest/categories/{id}. Read-only fields of the representation
 * (url, id, children, count) are dropped by the validation pipe, so a GET body can be PUT back.
 * Emptiness and lengths are rules of the service, which answers them with precise messages.
 */
export class CategoryWriteDto {
  @ApiPropertyOptional({ type: String, nullable: true, description: 'required and non-empty on create' })
  @IsOptional()
  @IsString()
  name?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'null or empty clears it' })
  @IsOptional()
  @IsString()
  description?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'URL of the parent category; null for a top-level one',
  })
  @IsOptional()
  @IsString()
  parent?: string | null;
}
