import { InvalidInput } from '@dam/errors';

/**
 * The one set of parsers for values a client sends in a query, a form, a JSON or an XML body. Each
 * names the field in its message; absent (undefined, null or '') is undefined, never an error.
 * Arrays are read by QueryParams (repeated, comma-joined or `[n]`-suffixed parameters).
 */

const MAX_ID = 2_147_483_647;

/** JSON `true`/`false`, or the strings "true"/"false" in any case (queries, forms, XML). */
export function parseBoolean(raw: unknown, name: string): boolean | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw === 'boolean') return raw;
  if (typeof raw === 'string' && /^\s*(true|false)\s*$/i.test(raw))
    return raw.trim().toLowerCase() === 'true';
  throw new InvalidInput(`${name} must be true or false`);
}

/** An optional whole number that names something (negative values allowed: some fields use them as "none"). */
export function parseOptionalId(raw: unknown, name: string): number | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const text = typeof raw === 'number' ? String(raw) : raw;
  const id = typeof text === 'string' && /^-?\d{1,10}$/.test(text.trim()) ? Number(text) : NaN;
  if (!Number.isSafeInteger(id) || id > MAX_ID || id < -MAX_ID) {
    throw new InvalidInput(`${name} must be a whole number`);
  }
  return id;
}

/** A required id: a whole positive number sent as a number or a string. */
export function parsePositiveId(raw: unknown, name: string): number {
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  const id = /^\d{1,10}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(id) || id < 1 || id > MAX_ID) {
    throw new InvalidInput(`${name} must be a whole positive number`);
  }
  return id;
}

/** True when `id` could name a row (a path segment already parsed as a number). */
export function isValidId(id: number): boolean {
  return Number.isSafeInteger(id) && id >= 1 && id <= MAX_ID;
}
