import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsInt, IsString, Max, MaxLength, Min } from 'class-validator';

/** Signed URLs live at most a week (also the longest presigned URL S3 allows). */
export const MAX_EXPIRY_SECONDS = 7 * 24 * 3600;

export class SignUrlRequest {
  @ApiProperty({ description: "absolute URL of a resource below this service's REST root" })
  @IsDefined({ message: 'url is required' })
  @IsString({ message: 'url must be a string' })
  @MaxLength(2048, { message: 'url must be at most 2048 characters' })
  url: string;

  @ApiProperty({
    minimum: 0,
    maximum: MAX_EXPIRY_SECONDS,
    description:
      '0: never expires when DAM_SIGNED_URL_ALLOW_NEVER=true (timestamp 0), else the longest lifetime',
  })
  @IsDefined({ message: 'expirySeconds is required' })
  @IsInt({ message: `expirySeconds must be a whole number from 0 to ${MAX_EXPIRY_SECONDS}` })
  @Min(0, { message: `expirySeconds must be a whole number from 0 to ${MAX_EXPIRY_SECONDS}` })
  @Max(MAX_EXPIRY_SECONDS, {
    message: `expirySeconds must be a whole number from 0 to ${MAX_EXPIRY_SECONDS}`,
  })
  expirySeconds: number;
}
