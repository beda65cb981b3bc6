import { InvalidInput, parseOptionalId } from '@dam/platform';
import { CountScope } from './access-level.reader';

/**
 * Ids given in a query array: repeated (`id=1&id=2`), comma-joined (`id=1,2`) or indexed (`id[0]=1`).
 * None at all is a 400 that points at the instance route.
 */
export function idsFromQuery(query: Record<string, unknown>, name: string): number[] {
  const raw: unknown[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (key !== name && !new RegExp(`^${name}\\[\\d{1,4}\\]$`).test(key)) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      raw.push(...(typeof item === 'string' ? item.split(',') : [item]));
    }
  }
  const ids = raw.map((item) => parseOptionalId(typeof item === 'string' ? item.trim() : item, name));
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
