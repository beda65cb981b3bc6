import { ApiProperty } from '@nestjs/swagger';

/** OpenAPI schema of `AssetVersionRepresentation`. */
export class AssetVersionSchema {
  @ApiProperty()
  version: number;
  @ApiProperty()
  current: boolean;
  @ApiProperty()
  originalFilename: string;
  @ApiProperty({ description: 'bytes' })
  fileSize: number;
  @ApiProperty()
  contentType: string;
  @ApiProperty({ format: 'date-time' })
  dateAdded: string;
  @ApiProperty({ format: 'uri' })
  contentUrl: string;
}

/** `{url}`: a signed URL, also in `Location`. */
export class SignedUrlSchema {
  @ApiProperty({ format: 'uri' })
  url: string;
}

/** Never answered (no save is ever pending): the operation answers 404. */
export class SaveStatusSchema {
  @ApiProperty()
  status: string;
}
