import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';

/** `POST /rest/users/{id}/lightboxes` and `POST` on the instance: checked by the service (exact messages). */
export class LightboxWriteDto {
  @ApiPropertyOptional({ type: String, description: 'required when creating; unique per user' })
  @Allow()
  name?: unknown;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'optional; null clears it' })
  @Allow()
  description?: unknown;
}

/** `POST .../contents`: the URL of an asset the owner of the lightbox may view. */
export class AddLightboxContentDto {
  @ApiPropertyOptional({ type: String, format: 'uri', description: 'asset URL' })
  @Allow()
  url?: unknown;
}
