import type { ByteRange } from './object-storage.port';

/**
 * Reads an HTTP `Range` header (RFC 9110 §14) for an object of `size` bytes: a single range
 * (`bytes=a-b`, `bytes=a-`, `bytes=-n`), `'unsatisfiable'` (answer 416), or undefined when there is no
 * header or one the server may ignore (other units, several ranges, malformed): answer with everything.
 */
export function parseRange(
  header: string | undefined,
  size: number,
): ByteRange | 'unsatisfiable' | undefined {
  const match = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header ?? '');
  if (match === null) return undefined;
  const [, first, last] = match;
  if (first === '' && last === '') return undefined;
  const from = first === '' ? undefined : Number(first);
  const to = last === '' ? undefined : Number(last);
  if (
    (from !== undefined && !Number.isSafeInteger(from)) ||
    (to !== undefined && !Number.isSafeInteger(to))
  ) {
    return undefined;
  }
  if (from === undefined) {
    // Suffix range: the last `to` bytes.
    if (to === undefined || to === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - to), end: size - 1 };
  }
  if (to !== undefined && to < from) return undefined;
  if (from >= size) return 'unsatisfiable';
  return { start: from, end: Math.min(to ?? size - 1, size - 1) };
}
