import { InvalidInput } from '@dam/errors';
import { parseWholeNumber } from '@dam/http';

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
  return parseWholeNumber(raw, 'displayOrder', { min: 0, max: MAX_DISPLAY_ORDER, json: true });
}
