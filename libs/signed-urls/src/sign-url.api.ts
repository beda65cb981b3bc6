import { ApiProperty } from '@nestjs/swagger';

/** `{url}`: the signed URL, also in `Location`. */
export class SignedUrlSchema {
  @ApiProperty({ format: 'uri' })
  url: string;
}
