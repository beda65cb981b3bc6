import { createHash } from 'node:crypto';

/** The canonical text of a set of ids: ascending, without repeats, comma-separated (`''` for none). */
export function idSetText(ids: Iterable<number>): string {
  return [...new Set(ids)].sort((a, b) => a - b).join(',');
}

/**
 * A fixed-width key for a set of ids (the SHA-1 of `idSetText`, 40 hex characters), for tables keyed by
 * a set that may be longer than an index allows. Migrations and their owners compute it alike.
 */
export function idSetKey(ids: Iterable<number>): string {
  return createHash('sha1').update(idSetText(ids)).digest('hex');
}

/** The ids of an `idSetText`. */
export function parseIdSetText(text: string): number[] {
  return text === '' ? [] : text.split(',').map(Number);
}
