import { ApiProperty } from '@nestjs/swagger';

/** The REST root: `api_version_1_3` maps each collection's name to its absolute URL. */
export class RootSchema {
  @ApiProperty({ example: 'DAM REST API' })
  api_name: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string', format: 'uri' } })
  api_version_1_3: Record<string, string>;
}
