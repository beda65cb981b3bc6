import { ActorRef, actorRef, EventType } from '@dam/events';
import { UrlService } from '@dam/http';

/** The payload of every `access-level.*` event (docs/events.md). */
export interface AccessLevelEventData extends ActorRef {
  accessLevelId: number;
  accessLevelUrl: string;
}

export function accessLevelEventData(urls: UrlService, id: number, actorId: number): AccessLevelEventData {
  return {
    accessLevelId: id,
    accessLevelUrl: urls.configured().rest('access-levels', id),
    ...actorRef(urls.configured(), actorId),
  };
}

export class AccessLevelCreated extends EventType<AccessLevelEventData>('access-level.created') {}

/** Its name, description (in any language) or parent changed; one event per level of a batch update. */
export class AccessLevelUpdated extends EventType<AccessLevelEventData>('access-level.updated') {}

/** One event per level of a batch delete. */
export class AccessLevelDeleted extends EventType<AccessLevelEventData>('access-level.deleted') {}
