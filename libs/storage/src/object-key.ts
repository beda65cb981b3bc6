/** Thrown when a key or prefix could name something outside the store (`..`, `/x`, odd characters). */
export class InvalidObjectKey extends Error {
  constructor(readonly key: string) {
    super(`invalid object key: ${JSON.stringify(key.slice(0, 200))}`);
  }
}

const MAX_KEY_LENGTH = 1024;
/** Segments start with a letter, digit, `_` or `-`: no `.`, `..` or hidden names (the fs temp folder is `.tmp`). */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;
const PREFIX = /^[A-Za-z0-9/_.-]*$/;

/**
 * Keys are service-made (`assets/1/2`, `temp/{uuid}/0`): slash-separated segments of [A-Za-z0-9_.-].
 * Both adapters refuse anything else, so a key can never escape the storage folder or bucket.
 */
export function assertValidKey(key: string): void {
  if (key.length === 0 || key.length > MAX_KEY_LENGTH || key.includes('..')) throw new InvalidObjectKey(key);
  if (!key.split('/').every((segment) => SEGMENT.test(segment))) throw new InvalidObjectKey(key);
}

/** A prefix is the start of a key: the same characters, possibly ending in `/` or mid-segment. */
export function assertValidPrefix(prefix: string): void {
  if (
    prefix.length > MAX_KEY_LENGTH ||
    prefix.includes('..') ||
    prefix.startsWith('/') ||
    !PREFIX.test(prefix)
  ) {
    throw new InvalidObjectKey(prefix);
  }
}
