/** Who a request acts as: the authenticated user, or the user named by `userId` when that is allowed. */
export interface ActorUser {
  id: number;
  username: string;
  isAdmin: boolean;
  isApplication: boolean;
}

export type AuthenticatedVia = 'token' | 'oidc' | 'trusted-network' | 'signed-url';

export interface Principal {
  user: ActorUser;
  via: AuthenticatedVia;
  /** The OAuth client (`client_id`) of the token, when authenticated by one. */
  clientId?: string;
}

/** Admins and the application user hold every permission and may act as anyone. */
export function isPrivileged(user: ActorUser): boolean {
  return user.isAdmin || user.isApplication;
}

/** The fields the guard attaches to the express request. */
export interface AuthenticatedRequest {
  principal?: Principal;
  actor?: ActorUser;
}

/** The actor fields of a user row. */
export function toActor(user: {
  id: number;
  username: string;
  isAdmin: boolean;
  isApplication: boolean;
}): ActorUser {
  return { id: user.id, username: user.username, isAdmin: user.isAdmin, isApplication: user.isApplication };
}
