import { ApiProperty } from '@nestjs/swagger';

/** OpenAPI schema of `LightboxRepresentation`. */
export class LightboxSchema {
  @ApiProperty()
  id: number;
  @ApiProperty()
  name: string;
  @ApiProperty()
  description: string;
  @ApiProperty()
  size: number;
  @ApiProperty({ format: 'uri' })
  lightboxContentsUrl: string;
  @ApiProperty({ type: String, nullable: true, format: 'uri' })
  lightboxPublicUrl: string | null;
}

export class LightboxListItemSchema extends LightboxSchema {
  @ApiProperty({ format: 'uri' })
  lightboxInstanceUrl: string;
}

class LightboxItemAttributeSchema {
  @ApiProperty()
  id: string;
  @ApiProperty()
  label: string;
  @ApiProperty()
  value: string;
}

/** Spec 2.8: an asset in a lightbox. */
export class LightboxContentItemSchema {
  @ApiProperty({ format: 'uri' })
  url: string;
  @ApiProperty({ format: 'uri' })
  assetInLightboxUrl: string;
  @ApiProperty({ format: 'uri' })
  contentUrl: string;
  @ApiProperty({ format: 'uri' })
  displayUrl: string;
  @ApiProperty({ format: 'uri' })
  thumbnailUrl: string;
  @ApiProperty({ format: 'uri' })
  previewUrl: string;
  @ApiProperty({ format: 'uri' })
  unwatermarkedLargeImageUrl: string;
  @ApiProperty({ enum: ['true', 'false'] })
  approved: 'true' | 'false';
  @ApiProperty({ type: [LightboxItemAttributeSchema] })
  attributes: LightboxItemAttributeSchema[];
}

/** Spec 2.9. */
export class LightboxContentInstanceSchema {
  @ApiProperty({ format: 'uri' })
  assetInstanceUrl: string;
  @ApiProperty({ format: 'uri' })
  lightboxInstanceUrl: string;
}
