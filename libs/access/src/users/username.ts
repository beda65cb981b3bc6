import { InvalidInput } from '@dam/errors';

/**
 * DAM_USERNAME_CHARACTERS: `latin` (the default) allows letters of the Latin script, the digits 0-9 and
 * the characters of an email address (RFC 5322 atext, `.` and `@`), so that a look-alike such as a
 * Cyrillic `bоb` beside `bob` cannot be created; `any` allows every character but control characters.
 */
export type UsernameCharacters = 'latin' | 'any';

const EMAIL_SYMBOLS = ".@!#$%&'*+-/=?^_`{|}~";
const LATIN = /^(?:[0-9]|[.@!#$%&'*+\-/=?^_`{|}~]|(?=\p{L})\p{Script=Latin})+$/u;

/**
 * A username as stored: trimmed and NFKC-normalised (full-width `ｂｏｂ` is `bob`, ligatures are split),
 * 1 to 255 characters, none of them control characters, and within `characters`. Applied when a user is
 * created or renamed; names stored before stay valid and keep working.
 */
export function validUsername(raw: unknown, characters: UsernameCharacters): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw new InvalidInput('you must supply a username');
  const username = raw.normalize('NFKC').trim();
  if (username === '' || username.length > 255 || hasControlCharacters(username)) {
    throw new InvalidInput('a username must be 1 to 255 characters without control characters');
  }
  if (characters === 'latin' && !LATIN.test(username)) {
    throw new InvalidInput(
      `a username may hold only letters of the Latin script, the digits 0-9 and ${EMAIL_SYMBOLS.split('').join(' ')}`,
    );
  }
  return username;
}

function hasControlCharacters(value: string): boolean {
  return [...value].some((char) => {
    const code = char.codePointAt(0) ?? 0;
    return code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0);
  });
}
