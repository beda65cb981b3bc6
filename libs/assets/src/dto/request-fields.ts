import { InvalidInput } from '@dam/platform';

/** A boolean sent as JSON `true`/`false` or as the strings "true"/"false" (XML, older clients). */
export function readBoolean(raw: unknown, name: string): boolean | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw === 'boolean') return raw;
  if (typeof raw === 'string' && /^\s*(true|false)\s*$/i.test(raw))
    return raw.trim().toLowerCase() === 'true';
  throw new InvalidInput(`${name} must be true or false`);
}

/** A whole positive id sent as a number or a string. */
export function readId(raw: unknown, what: string): number {
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  const id = /^\d{1,10}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) {
    throw new InvalidInput(`${what} must be a whole positive number`);
  }
  return id;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
