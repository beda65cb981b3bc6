import { ListField, TextField } from '@dam/http';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, ValidateIf } from 'class-validator';
import { EVENTS_MESSAGE } from '../webhook-events';

/**
 * `POST /rest/admin/webhooks` and `PUT` on a webhook. The types are checked here; the service checks the
 * values (the target: `WebhookTargets.checkOrThrow`; the event names: `readEventPatterns`; required fields
 * on create). On PUT an omitted field stays as it is.
 */
export class WebhookWriteDto {
  @TextField('you must supply the url to call', {
    format: 'uri',
    description:
      'http(s) URL to POST events to; required when creating. Targets that are not public unicast (loopback, private, link-local, IPv6 forms carrying IPv4: docs/security.md) are refused unless DAM_WEBHOOK_ALLOWED_HOSTS lists the host.',
  })
  url?: string | null;

  @ListField(EVENTS_MESSAGE, {
    type: [String],
    description:
      'Event names (`asset.created`), areas (`asset.*`) or `*`; required when creating (docs/events.md).',
  })
  events?: string[] | null;

  @TextField('description must be text', { nullable: true })
  description?: string | null;

  @ApiPropertyOptional({
    type: Boolean,
    description: 'PUT only: `true` re-enables a disabled webhook, `false` disables it.',
  })
  @ValidateIf((_, value) => value !== undefined)
  @IsBoolean({ message: 'enabled must be true or false' })
  enabled?: boolean;
}
