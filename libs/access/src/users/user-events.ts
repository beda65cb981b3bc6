import { ActorRef, actorRef, DomainEvent } from '@dam/events';
import { UrlService } from '@dam/http';

/** The payload of every `user.*` event (docs/events.md). */
export interface UserEventData extends ActorRef {
  userId: number;
  userUrl: string;
}

export function userEventData(urls: UrlService, userId: number, actorId: number): UserEventData {
  return {
    userId,
    userUrl: urls.configured().rest('users', userId),
    ...actorRef(urls.configured(), actorId),
  };
}

export class UserCreated extends DomainEvent<UserEventData> {
  static readonly TYPE = 'user.created';
  readonly type = UserCreated.TYPE;
}

/** Its name, email, admin flag, groups or password changed. */
export class UserUpdated extends DomainEvent<UserEventData> {
  static readonly TYPE = 'user.updated';
  readonly type = UserUpdated.TYPE;
}

export class UserDeleted extends DomainEvent<UserEventData> {
  static readonly TYPE = 'user.deleted';
  readonly type = UserDeleted.TYPE;
}
