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

/** Where a whole number may lie: from `min`, to `max` when given. `json`: sent as a JSON number. */
export interface WholeNumberBounds {
  min: number;
  max?: number;
  /** A JSON body's number (7.0 is 7; a string is refused), rather than plain digits in a query or path. */
  json?: boolean;
}

/**
 * An optional whole number within `bounds`: in a query, a form or a path, plain digits (no sign,
 * fraction, exponent or `0x`); in a JSON body (`json`), a number. Absent is undefined (in a JSON body
 * '' is not absent but refused); anything else outside the bounds is "<name> must be a whole number
 * from <min> to <max>" (or "of at least <min>").
 */
export function parseWholeNumber(raw: unknown, name: string, bounds: WholeNumberBounds): number | undefined {
  if (raw === undefined || raw === null || (raw === '' && bounds.json !== true)) return undefined;
  return requireWholeNumber(raw, name, bounds);
}

/** A whole number within `bounds` that must be there (parseWholeNumber, absent refused alike). */
export function requireWholeNumber(raw: unknown, name: string, bounds: WholeNumberBounds): number {
  const { min, max, json = false } = bounds;
  const value = json
    ? typeof raw === 'number'
      ? raw
      : NaN
    : typeof raw === 'string' && /^\d{1,9}$/.test(raw)
      ? Number(raw)
      : NaN;
  if (!Number.isSafeInteger(value) || value < min || (max !== undefined && value > max)) {
    const range = max === undefined ? `of at least ${min}` : `from ${min} to ${max}`;
    throw new InvalidInput(`${name} must be a whole number ${range}`);
  }
  return value;
}

/** True when `id` could name a row (a path segment already parsed as a number). */
export function isValidId(id: number): boolean {
  return Number.isSafeInteger(id) && id >= 1 && id <= MAX_ID;
}
