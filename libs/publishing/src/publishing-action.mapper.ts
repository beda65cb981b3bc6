import { Injectable } from '@nestjs/common';
import { UrlService, xmlMapping } from '@dam/http';
import { PublishingActionRow, PublishingEvent } from './publishing-actions.repository';

/** `{name, logUrl}` of issue 7, plus `url`, `id` and the stored `criteria` query string. */
export interface PublishingActionRepresentation {
  url: string;
  id: number;
  name: string;
  criteria: string;
  logUrl: string;
}

export interface PublishingLogRepresentation {
  events: Array<{ assetId: number; type: PublishingEvent['type'] }>;
  nextStartSequence: number;
}

/** XML (DESIGN §3): `<publishingAction>`; the log is `<publishingLog>` with `<events><event>`. */
export const PUBLISHING_ACTION_XML = xmlMapping('publishingAction');
export const PUBLISHING_LOG_XML = xmlMapping('publishingLog', { events: 'event' });

@Injectable()
export class PublishingActionMapper {
  constructor(private readonly urls: UrlService) {}

  url(id: number): string {
    return this.urls.rest('publishing-actions', id);
  }

  toRepresentation(action: PublishingActionRow): PublishingActionRepresentation {
    return {
      url: this.url(action.id),
      id: action.id,
      name: action.name,
      criteria: action.criteria,
      logUrl: this.urls.rest('publishing-actions', action.id, 'log'),
    };
  }

  toLog(events: PublishingEvent[], nextStartSequence: number): PublishingLogRepresentation {
    return { events: events.map(({ assetId, type }) => ({ assetId, type })), nextStartSequence };
  }
}
