import { InvalidInput } from '@dam/errors';
import { parseOptionalId, QueryParams } from '@dam/http';
import { CountScope } from './access-level.reader';

/**
 * Ids given in a query array (repeated, comma-joined or indexed: QueryParams). None at all is a 400 that
 * points at the instance route.
 */
export function idsFromQuery(params: QueryParams, name: string): number[] {
  const ids = params.list(name).map((item) => parseOptionalId(item, name));
  if (ids.length === 0 || ids.some((id) => id === undefined || id < 1)) {
    throw new InvalidInput(
      `name the access levels to delete with ?${name}=<id> (repeatable), or DELETE an access level's own URL`,
    );
  }
  return ids.filter((id): id is number => id !== undefined);
}

/** Counts cover the assets visible to the user named by `?userId=`, or all assets when none is named. */
export function countScopeOf(userId: unknown): CountScope {
  return userId === undefined || userId === '' ? 'all' : 'visible';
}
