import { ActorRef, actorRef, EventType } from '@dam/events';
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

export class UserCreated extends EventType<UserEventData>('user.created') {}

/** Its name, email, admin flag, groups or password changed. */
export class UserUpdated extends EventType<UserEventData>('user.updated') {}

export class UserDeleted extends EventType<UserEventData>('user.deleted') {}
