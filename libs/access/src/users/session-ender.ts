import type { EntityManager } from 'typeorm';

/**
 * Ends every session of a user (tokens revoked, credential generation raised), as a password change
 * must. Declared here, below `sessions/` which implements it (`SessionsService`, bound in the identity
 * module), so that users never imports upward: sessions reads users and oauth.
 */
export abstract class SessionEnder {
  /** In `within`'s transaction when given; returns the tokens revoked. */
  abstract endAll(userId: number, within?: EntityManager): Promise<number>;
}
