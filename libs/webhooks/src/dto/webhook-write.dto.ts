import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';

/** `POST /rest/admin/webhooks` and `PUT` on a webhook: checked by the service (exact messages). */
export class WebhookWriteDto {
  @ApiPropertyOptional({
    type: String,
    format: 'uri',
    description:
      'http(s) URL to POST events to; required when creating. Targets that are not public unicast (loopback, private, link-local, IPv6 forms carrying IPv4: docs/security.md) are refused unless DAM_WEBHOOK_ALLOWED_HOSTS lists the host.',
  })
  @Allow()
  url?: unknown;

  @ApiPropertyOptional({
    type: [String],
    description:
      'Event names (`asset.created`), areas (`asset.*`) or `*`; required when creating (docs/events.md).',
  })
  @Allow()
  events?: unknown;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Allow()
  description?: unknown;

  @ApiPropertyOptional({
    type: Boolean,
    description: 'PUT only: `true` re-enables a disabled webhook, `false` disables it.',
  })
  @Allow()
  enabled?: unknown;
}
