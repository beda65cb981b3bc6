import { ApiProperty } from '@nestjs/swagger';

/** OpenAPI schema of `ShareRepresentation`. */
export class ShareSchema {
  @ApiProperty()
  id: number;
  @ApiProperty({ format: 'uri', description: 'this share (GET, DELETE)' })
  url: string;
  @ApiProperty({
    type: String,
    nullable: true,
    format: 'uri',
    description: 'the public link: in the answer of POST only (its token is stored hashed), else null',
  })
  publicUrl: string | null;
  @ApiProperty()
  title: string;
  @ApiProperty({ enum: ['original', 'display', 'preview'] })
  rendition: string;
  @ApiProperty({ format: 'date-time' })
  expiresAt: string;
  @ApiProperty({ type: Number, nullable: true })
  maxDownloads: number | null;
  @ApiProperty()
  downloads: number;
  @ApiProperty()
  hasPassword: boolean;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  revokedAt: string | null;
  @ApiProperty({ format: 'date-time' })
  createdAt: string;
  @ApiProperty({ format: 'uri' })
  ownerUrl: string;
}

/** OpenAPI schema of an item of the public listing. */
export class PublicShareItemSchema {
  @ApiProperty()
  filename: string;
  @ApiProperty()
  size: number;
  @ApiProperty()
  contentType: string;
  @ApiProperty({ format: 'uri', description: 'the item’s bytes (counts as a download)' })
  downloadUrl: string;
}

/** OpenAPI schema of `GET {publicUrl}`. */
export class PublicShareSchema {
  @ApiProperty()
  title: string;
  @ApiProperty({ format: 'date-time' })
  expiresAt: string;
  @ApiProperty({ type: [PublicShareItemSchema] })
  items: PublicShareItemSchema[];
  @ApiProperty({ format: 'uri', description: 'every item in one ZIP (counts as one download)' })
  zipUrl: string;
}
