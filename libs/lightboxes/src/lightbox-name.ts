import { createHash } from 'node:crypto';
import { InvalidInput, StateConflict } from '@dam/errors';

export const MISSING_LIGHTBOX_NAME = 'you must supply a name when creating a new lightbox';
const MAX_NAME_LENGTH = 255;
const MAX_DESCRIPTION_LENGTH = 10_000;

export class LightboxNameMissing extends InvalidInput {
  constructor(message = MISSING_LIGHTBOX_NAME) {
    super(message);
  }
}

export class LightboxNameTaken extends StateConflict {
  constructor(name: string) {
    super(`a lightbox named ${name} already exists for the user`);
  }
}

/**
 * "Exactly that name": names compare case- and accent-sensitively, after trimming surrounding white
 * space and Unicode NFC normalisation (so the same text typed two ways is one name). The key is a hash
 * of that form, so MySQL's case-insensitive collations and SQLite's binary one agree.
 */
export function lightboxName(raw: string | null | undefined, missing: () => InvalidInput): string {
  if (raw === undefined || raw === null) throw missing();
  const name = raw.trim().normalize('NFC');
  if (name === '') throw missing();
  if ([...name].length > MAX_NAME_LENGTH) {
    throw new InvalidInput(`a lightbox name can be at most ${MAX_NAME_LENGTH} characters`);
  }
  return name;
}

export function lightboxNameKey(name: string): string {
  return createHash('sha256').update(name, 'utf8').digest('hex');
}

/** Optional description: null clears it; text (its type checked by `LightboxWriteDto`) is kept as sent. */
export function lightboxDescription(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  if ([...raw].length > MAX_DESCRIPTION_LENGTH) {
    throw new InvalidInput(`a lightbox description can be at most ${MAX_DESCRIPTION_LENGTH} characters`);
  }
  return raw;
}
