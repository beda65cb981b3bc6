import { InvalidInput } from '@dam/errors';

/** `asset.created`, `asset.*` (every event of an area) or `*` (every event). */
const PATTERN = /^(\*|[a-z][a-z0-9-]*\.(\*|[a-z][a-z0-9-]*))$/;
const MAX_EVENTS = 100;
export const EVENTS_MESSAGE = 'events must be a non-empty list of event names, such as ["asset.created"]';

/** Whether a webhook subscribed to `patterns` wants an event of `type`. */
export function matchesAny(patterns: readonly string[], type: string): boolean {
  return patterns.some(
    (pattern) =>
      pattern === '*' ||
      pattern === type ||
      (pattern.endsWith('.*') && type.startsWith(pattern.slice(0, -1))),
  );
}

/** The `events` of a webhook sent by an admin: a non-empty list of event names or patterns (docs/events.md). */
export function readEventPatterns(raw: unknown): string[] {
  if (!Array.isArray(raw) || raw.length === 0) throw new InvalidInput(EVENTS_MESSAGE);
  if (raw.length > MAX_EVENTS) throw new InvalidInput(`events may list at most ${MAX_EVENTS} names`);
  const patterns = raw.map((entry: unknown) => {
    if (typeof entry !== 'string' || !PATTERN.test(entry))
      throw new InvalidInput(
        `events: ${JSON.stringify(entry) ?? String(entry)} is not an event name (asset.created), an area (asset.*) or *`,
      );
    return entry;
  });
  return [...new Set(patterns)];
}
