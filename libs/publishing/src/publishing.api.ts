import { NamedResourceSchema } from '@dam/http';
import { ApiProperty } from '@nestjs/swagger';

/** OpenAPI schema of `PublishingActionRepresentation`. */
export class PublishingActionSchema extends NamedResourceSchema {
  @ApiProperty({ description: 'an asset-search query string' })
  criteria: string;
  @ApiProperty({ format: 'uri' })
  logUrl: string;
}

class PublishingEventSchema {
  @ApiProperty()
  assetId: number;
  @ApiProperty({ enum: ['PUBLISH', 'UNPUBLISH'] })
  type: string;
}

/** OpenAPI schema of `PublishingLogRepresentation`. */
export class PublishingLogSchema {
  @ApiProperty({ type: [PublishingEventSchema] })
  events: PublishingEventSchema[];
  @ApiProperty({ description: 'the `startSequence` of the next page' })
  nextStartSequence: number;
}
