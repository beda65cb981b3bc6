import { ApiProperty } from '@nestjs/swagger';

/** OpenAPI schema of `TempChunkedFileRepresentation`. */
export class TempChunkedFileSchema {
  @ApiProperty({ format: 'uri' })
  url: string;
  @ApiProperty({ format: 'uuid' })
  id: string;
}

/** The answer to a stored chunk. */
export class StoredChunkSchema {
  @ApiProperty({ minimum: 0, maximum: 99999 })
  index: number;
  @ApiProperty({ description: 'bytes' })
  size: number;
}
