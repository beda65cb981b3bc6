import type { FieldChanges } from './domain-event';

/** A value as `changes` keeps it: dates as ISO text, undefined as null, the rest as it is (JSON). */
function plain(value: unknown): unknown {
  if (value === undefined) return null;
  return value instanceof Date ? value.toISOString() : value;
}

/**
 * `{field: {before, after}}` of the `fields` whose value differs between `before` and `after` (either
 * undefined for a creation or a deletion: every field then counts, from or to null). Values compare by
 * their JSON. Never pass a secret's field: record it with `SECRET_CHANGED` instead.
 */
export function fieldChanges<T extends object>(
  before: T | undefined,
  after: T | undefined,
  fields: readonly (keyof T & string)[],
): FieldChanges {
  const changes: FieldChanges = {};
  for (const field of fields) {
    const was = plain(before?.[field]);
    const is = plain(after?.[field]);
    if (JSON.stringify(was) !== JSON.stringify(is)) changes[field] = { before: was, after: is };
  }
  return changes;
}

/** A secret (password, signing secret) that changed: named in `changes`, its values never kept. */
export const SECRET_CHANGED = Object.freeze({ before: null, after: null });
