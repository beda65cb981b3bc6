import { ActorRef, actorRef, EventType } from '@dam/events';
import { UrlService } from '@dam/http';

/** The payload of `login.failed`: the user tried, when the name is one (no actor: nobody signed in). */
export interface LoginFailedData extends ActorRef {
  userId: number | null;
  userUrl: string | null;
}

/** Longest attempted name an entry keeps. */
const MAX_NAME = 255;

/**
 * The token endpoint refused a password or a client secret (audit only: `recordUnpublished`, no
 * webhook). The entry names what was tried, `username` or `clientId` as its `after`, never the password
 * or secret.
 */
export class LoginFailed extends EventType<LoginFailedData>('login.failed') {
  static of(
    urls: UrlService,
    tried: 'username' | 'clientId',
    name: string,
    userId: number | null,
  ): LoginFailed {
    const data = {
      userId,
      userUrl: userId === null ? null : urls.configured().rest('users', userId),
      ...actorRef(urls.configured(), null),
    };
    return new LoginFailed(data).withChanges({ [tried]: { before: null, after: name.slice(0, MAX_NAME) } });
  }
}
