import { BadRequest } from './domain-errors';

/** A boolean query parameter: absent or empty is false; `true`/`false` in any case; anything else is a 400. */
export function readBooleanQuery(raw: unknown, name: string): boolean {
  if (raw === undefined || raw === '') return false;
  const value = typeof raw === 'string' ? raw.toLowerCase() : undefined;
  if (value !== 'true' && value !== 'false') throw new BadRequest(`${name} must be true or false`);
  return value === 'true';
}
