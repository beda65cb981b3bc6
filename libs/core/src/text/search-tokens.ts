/** Longest token kept; the index column is varchar(64). */
export const MAX_TOKEN_LENGTH = 64;

/**
 * Prefix of the one "exact value" token kept for non-text values (lists, dates, numbers, booleans,
 * times), so equality filters are index lookups too. Word tokens never contain it.
 */
export const EXACT_VALUE_MARK = '=';

/**
 * The words of a text as the search index keeps them: lower-cased, accents stripped (Unicode NFKD
 * without combining marks, `ß` as `ss`), split on anything that is not a letter or a digit, cut to
 * MAX_TOKEN_LENGTH characters, each once, in order of first appearance.
 */
export function searchTokens(text: string): string[] {
  const words = normaliseText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '')
    .map(truncate);
  return [...new Set(words)];
}

/** The exact-value token of a stored value (compared case-insensitively). */
export function exactValueToken(storedValue: string): string {
  return truncate(`${EXACT_VALUE_MARK}${storedValue.toLowerCase()}`);
}

/** True when a value is longer than its exact-value token can tell apart. */
export function exceedsExactToken(storedValue: string): boolean {
  return [...`${EXACT_VALUE_MARK}${storedValue}`].length > MAX_TOKEN_LENGTH;
}

/** Lower case first (so `İ` loses its dot with the other marks), then decompose and drop the marks. */
function normaliseText(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/ß/g, 'ss');
}

/** By code points, so a surrogate pair is never split. */
function truncate(token: string): string {
  const chars = [...token];
  return chars.length > MAX_TOKEN_LENGTH ? chars.slice(0, MAX_TOKEN_LENGTH).join('') : token;
}

/** Attribute type ids (a DESIGN §6 contract) whose values are words: text, text area, list, keywords. */
const WORD_TYPES: ReadonlySet<number> = new Set([1, 2, 6, 7]);
/** Types compared as whole values: date, date-time, time, list, numeric, boolean. */
const EXACT_TYPES: ReadonlySet<number> = new Set([3, 4, 5, 6, 8, 9]);

/** The tokens the search index keeps for one stored value of an attribute of type `typeId`. */
export function valueTokens(typeId: number, storedValue: string): string[] {
  const tokens = WORD_TYPES.has(typeId) ? searchTokens(storedValue) : [];
  if (EXACT_TYPES.has(typeId) && storedValue !== '') tokens.push(exactValueToken(storedValue));
  return tokens;
}

/** One stored attribute value of an asset, as the index reads it. */
export interface IndexedValue {
  assetId: number;
  attributeId: number;
  typeId: number;
  value: string;
}

export type TokenRow = [token: string, assetId: number, attributeId: number];

/** The index rows of some values: every (token, asset, attribute) once, over all languages of a value. */
export function tokenRows(values: readonly IndexedValue[]): TokenRow[] {
  const seen = new Set<string>();
  const rows: TokenRow[] = [];
  for (const { assetId, attributeId, typeId, value } of values) {
    for (const token of valueTokens(typeId, value)) {
      const key = `${token}\u0000${assetId}\u0000${attributeId}`;
      if (!seen.has(key)) rows.push([token, assetId, attributeId]);
      seen.add(key);
    }
  }
  return rows;
}
