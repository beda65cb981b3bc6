import { NotPermitted } from '@dam/errors';
import { ActorUser, isPrivileged } from './actor';

/**
 * The one home of actor-level authorization checks. Permission checks on access levels go through
 * AccessGrants (PermissionsService.grantsFor); these answer "who is this actor" questions.
 */

/** Admins and the application user only; `what` completes "only administrators may ...". */
export function requireAdmin(actor: ActorUser, what: string): void {
  if (!isPrivileged(actor)) throw new NotPermitted(`only administrators may ${what}`);
}

/**
 * The actor themself, or an admin or the application user acting for them. `null` (a deleted user, e.g.
 * the creator of an upload) is nobody's self: admins only.
 */
export function isSelfOrAdmin(actor: ActorUser, userId: number | null): boolean {
  return actor.id === userId || isPrivileged(actor);
}
