import { ActorRef, actorRef, DomainEvent } from '@dam/events';
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

export class AccessLevelCreated extends DomainEvent<AccessLevelEventData> {
  static readonly TYPE = 'access-level.created';
  readonly type = AccessLevelCreated.TYPE;
}

/** Its name, description (in any language) or parent changed; one event per level of a batch update. */
export class AccessLevelUpdated extends DomainEvent<AccessLevelEventData> {
  static readonly TYPE = 'access-level.updated';
  readonly type = AccessLevelUpdated.TYPE;
}

/** One event per level of a batch delete. */
export class AccessLevelDeleted extends DomainEvent<AccessLevelEventData> {
  static readonly TYPE = 'access-level.deleted';
  readonly type = AccessLevelDeleted.TYPE;
}
