import { NamedResourceSchema } from '@dam/http';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** OpenAPI schema of `AccessLevelRepresentation` (spec 2.1). */
export class AccessLevelSchema extends NamedResourceSchema {
  @ApiProperty({ type: String, nullable: true })
  description: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'uri', description: 'URL of the parent level' })
  parent: string | null;
  @ApiProperty({ format: 'uri' })
  imageUrl: string;
  @ApiProperty()
  isAlwaysAssignable: boolean;
  @ApiProperty()
  hasPermissions: boolean;
  @ApiProperty()
  isSelectedOnLoad: boolean;
  @ApiProperty()
  isBrowsable: boolean;
  @ApiProperty()
  showPromotedItems: boolean;
  @ApiProperty()
  showRecentItems: boolean;
  @ApiProperty()
  isStatic: boolean;
  @ApiProperty({ type: () => [AccessLevelSchema] })
  children: AccessLevelSchema[];
  @ApiProperty({ description: 'assets at this level (with `?count`)' })
  count: number;
}

/** One node of `GET /rest/access-level-search`. */
export class AccessLevelSearchNodeSchema {
  @ApiProperty()
  id: string;
  @ApiProperty()
  name: string;
  @ApiPropertyOptional()
  parent?: string;
  @ApiPropertyOptional({ type: () => [AccessLevelSearchNodeSchema] })
  children?: AccessLevelSearchNodeSchema[];
  @ApiPropertyOptional()
  count?: number;
}
