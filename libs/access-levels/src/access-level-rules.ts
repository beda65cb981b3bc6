import { InvalidInput } from '@dam/errors';

/**
 * DESIGN §6: a level can be given to an asset when it has no sub-access levels, or when it is marked
 * `isAlwaysAssignable`.
 */
export function isAssignable(level: { hasChildren: boolean; isAlwaysAssignable: boolean }): boolean {
  return !level.hasChildren || level.isAlwaysAssignable;
}

/** An asset was to be put in a level that the rule above refuses. */
export class AccessLevelNotAssignable extends InvalidInput {
  constructor(readonly levelId: number) {
    super(`access level ${levelId} has sub-access levels and is not always assignable`);
  }
}
