import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** OpenAPI schema of `WebhookRepresentation`. */
export class WebhookSchema {
  @ApiProperty()
  id: number;
  @ApiProperty({ format: 'uri', description: 'the target the events are POSTed to' })
  url: string;
  @ApiProperty({ type: [String], description: 'event names (`asset.created`), areas (`asset.*`) or `*`' })
  events: string[];
  @ApiProperty({ type: String, nullable: true })
  description: string | null;
  @ApiProperty()
  enabled: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'why it was disabled, while it is' })
  disabledReason: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  disabledAt: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  failingSince: string | null;
  @ApiProperty({ format: 'date-time' })
  createdAt: string;
  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
  @ApiProperty({ format: 'uri', description: 'this webhook' })
  self: string;
  @ApiProperty({ format: 'uri' })
  deliveriesUrl: string;
  @ApiPropertyOptional({ description: 'the signing secret: only in the answers of create and rotate' })
  secret?: string;
}

/** OpenAPI schema of `DeliveryRepresentation`. */
export class DeliverySchema {
  @ApiProperty()
  id: number;
  @ApiProperty({ description: 'the `webhook-id` of every attempt' })
  eventId: string;
  @ApiProperty({ description: 'the event type' })
  event: string;
  @ApiProperty({ enum: ['pending', 'succeeded', 'failed'] })
  status: string;
  @ApiProperty()
  attempts: number;
  @ApiProperty({ type: Number, nullable: true })
  lastResponseCode: number | null;
  @ApiProperty({ type: String, nullable: true })
  lastError: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  lastAttemptAt: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  nextAttemptAt: string | null;
  @ApiProperty({ format: 'date-time' })
  createdAt: string;
  @ApiProperty({ format: 'uri' })
  webhookUrl: string;
}
