import { actorRef, EventType, FieldChanges, SECRET_CHANGED } from '@dam/events';
import { UrlService } from '@dam/http';
import { UserEventData } from '../users/user-events';

/** The payload of `client.*` (docs/events.md): the user the client acts as, and its `client_id`. */
export interface ClientEventData extends UserEventData {
  clientId: string;
}

/** An OAuth client was created (`dam clients:create`, or the application's at boot). */
export class ClientCreated extends EventType<ClientEventData>('client.created') {}

/** An OAuth client's secret was replaced (`dam clients:rotate-secret`, or DAM_CLIENT_SECRET at boot). */
export class ClientSecretRotated extends EventType<ClientEventData>('client.secret-rotated') {}

/**
 * A client change's event: made by no user (the CLI or the boot; actor null), with the client's id and
 * name in `changes` and a new secret named by SECRET_CHANGED, never its value nor its hash.
 */
export function clientEvent(
  urls: UrlService,
  kind: typeof ClientCreated | typeof ClientSecretRotated,
  client: { clientId: string; name: string; userId: number },
): ClientCreated | ClientSecretRotated {
  const data: ClientEventData = {
    userId: client.userId,
    userUrl: urls.configured().rest('users', client.userId),
    clientId: client.clientId,
    ...actorRef(urls.configured(), null),
  };
  const changes: FieldChanges =
    kind === ClientCreated
      ? {
          clientId: { before: null, after: client.clientId },
          name: { before: null, after: client.name },
          secret: { ...SECRET_CHANGED },
        }
      : { clientId: { before: client.clientId, after: client.clientId }, secret: { ...SECRET_CHANGED } };
  return new kind(data).withChanges(changes);
}
