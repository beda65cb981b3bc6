import { TextField } from '@dam/http';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined } from 'class-validator';

/**
 * `POST /rest/users/{id}/lightboxes` and `POST` on the instance. The types are checked here; the service
 * checks the name itself (required when creating, not blank, length after trimming: `lightboxName`).
 */
export class LightboxWriteDto {
  @TextField('the lightbox name must be text', { description: 'required when creating; unique per user' })
  name?: string | null;

  @TextField('the lightbox description must be text', {
    nullable: true,
    description: 'optional; null clears it',
  })
  description?: string | null;
}

/** `POST .../contents`: the URL of an asset the owner of the lightbox may view (read by `UrlService`). */
export class AddLightboxContentDto {
  @ApiPropertyOptional({ type: String, format: 'uri', description: 'asset URL' })
  @IsDefined({ message: 'you must supply the url of the asset to add' })
  url: unknown;
}
