import { NamedResourceSchema } from '@dam/http';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** OpenAPI schema of `CategoryRepresentation`. */
export class CategorySchema extends NamedResourceSchema {
  @ApiProperty({ type: String, nullable: true })
  description: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'uri' })
  parent: string | null;
  @ApiProperty({ type: () => [CategorySchema] })
  children: CategorySchema[];
}

/** One node of `GET /rest/category-search`. */
export class CategorySearchNodeSchema {
  @ApiProperty()
  id: number;
  @ApiProperty()
  name: string;
  @ApiProperty({ type: String, nullable: true })
  description: string | null;
  @ApiPropertyOptional()
  parent?: string;
  @ApiProperty({ type: () => [CategorySearchNodeSchema] })
  children: CategorySearchNodeSchema[];
  @ApiPropertyOptional()
  count?: number;
}
