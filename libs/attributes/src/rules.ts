import { InvalidInput } from '@dam/errors';

/** A required, non-blank piece of text, trimmed; `message` when it is missing or blank. */
export function requiredText(raw: unknown, message: string, maxLength = 255): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw new InvalidInput(message);
  const text = raw.trim();
  if (text.length > maxLength)
    throw new InvalidInput(`${text.slice(0, 40)}... is longer than ${maxLength} characters`);
  return text;
}

const MAX_DISPLAY_ORDER = 1_000_000;

/** An optional display position: undefined when not given. */
export function optionalDisplayOrder(raw: unknown): number | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 0 || raw > MAX_DISPLAY_ORDER) {
    throw new InvalidInput(`displayOrder must be a whole number from 0 to ${MAX_DISPLAY_ORDER}`);
  }
  return raw;
}
