import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';

/** `POST /rest/shares`: checked by the service (share-rules.ts, exact messages). */
export class ShareCreateDto {
  @ApiPropertyOptional({ type: [Number], description: 'the assets to share (or `lightboxId`)' })
  @Allow()
  assetIds?: unknown;

  @ApiPropertyOptional({
    type: Number,
    description: 'share a snapshot of this lightbox’s assets (or `assetIds`)',
  })
  @Allow()
  lightboxId?: unknown;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    description: 'default 7 days from now; at most DAM_SHARE_MAX_DAYS (90) away',
  })
  @Allow()
  expiresAt?: unknown;

  @ApiPropertyOptional({
    type: String,
    description: 'asked for in `X-Share-Password`; stored as a scrypt hash',
  })
  @Allow()
  password?: unknown;

  @ApiPropertyOptional({
    type: Number,
    minimum: 1,
    description: 'downloads (an item or the ZIP) allowed; none: no limit',
  })
  @Allow()
  maxDownloads?: unknown;

  @ApiPropertyOptional({ enum: ['original', 'display', 'preview'], default: 'original' })
  @Allow()
  rendition?: unknown;

  @ApiPropertyOptional({
    type: String,
    description: 'shown on the public page; default the lightbox’s name or "N files"',
  })
  @Allow()
  title?: unknown;
}
