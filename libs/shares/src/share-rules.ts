import { createHash, randomBytes } from 'node:crypto';
import { CONTENT_RENDITIONS, ContentRendition } from '@dam/asset-content';
import { InvalidInput } from '@dam/errors';

const DAY_MS = 24 * 3600 * 1000;
/** A share's lifetime when `expiresAt` is not given. */
export const DEFAULT_SHARE_DAYS = 7;
/** The most assets one share may hold. */
export const MAX_SHARE_ITEMS = 10_000;

/** A new link token: 256 random bits, URL-safe (43 characters). */
export function newShareToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps of a token: its hex SHA-256 (a dump of the table opens no link). */
export function shareTokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Whether `token` can be a link token at all (checked before hashing, so junk costs nothing). */
export function isShareTokenShaped(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}

/** `at` without its milliseconds: what a MariaDB `datetime` keeps, so answers agree before and after a read. */
export function wholeSeconds(at: Date): Date {
  return new Date(Math.floor(at.getTime() / 1000) * 1000);
}

/**
 * When a new share expires (in whole seconds): `requested` (ISO 8601 with a time zone), else DEFAULT_SHARE_DAYS from `now`,
 * never in the past nor more than `maxDays` from `now` (400).
 */
export function shareExpiry(requested: unknown, now: Date, maxDays: number): Date {
  const latest = now.getTime() + maxDays * DAY_MS;
  if (requested === undefined || requested === null) {
    return wholeSeconds(new Date(Math.min(now.getTime() + DEFAULT_SHARE_DAYS * DAY_MS, latest)));
  }
  const at = typeof requested === 'string' && ISO_DATE_TIME.test(requested) ? Date.parse(requested) : NaN;
  if (Number.isNaN(at)) throw new InvalidInput('expiresAt must be an ISO 8601 date-time with a time zone');
  if (at <= now.getTime()) throw new InvalidInput('expiresAt must be in the future');
  if (at > latest)
    throw new InvalidInput(`expiresAt may be at most ${maxDays} days away (DAM_SHARE_MAX_DAYS)`);
  return wholeSeconds(new Date(at));
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** `rendition`: original (the default), display or preview. */
export function shareRendition(requested: unknown): ContentRendition {
  if (requested === undefined || requested === null) return 'original';
  if (typeof requested === 'string' && (CONTENT_RENDITIONS as readonly string[]).includes(requested)) {
    return requested as ContentRendition;
  }
  throw new InvalidInput(`rendition must be one of ${CONTENT_RENDITIONS.join(', ')}`);
}

/** `maxDownloads`: absent or null for no limit, else a positive integer. */
export function shareMaxDownloads(requested: unknown): number | null {
  if (requested === undefined || requested === null) return null;
  if (
    typeof requested === 'number' &&
    Number.isInteger(requested) &&
    requested >= 1 &&
    requested <= 2 ** 31 - 1
  ) {
    return requested;
  }
  throw new InvalidInput('maxDownloads must be a positive integer');
}

/** `password`: absent or null for none, else a non-empty string of at most 1024 characters. */
export function sharePassword(requested: unknown): string | null {
  if (requested === undefined || requested === null) return null;
  if (typeof requested === 'string' && requested.length >= 1 && requested.length <= 1024) return requested;
  throw new InvalidInput('password must be a non-empty string of at most 1024 characters');
}

/** `title`: absent for the default, else a non-blank string of at most 255 characters. */
export function shareTitle(requested: unknown, fallback: string): string {
  if (requested === undefined || requested === null) return fallback;
  if (typeof requested === 'string' && requested.trim() !== '' && requested.length <= 255)
    return requested.trim();
  throw new InvalidInput('title must be a non-blank string of at most 255 characters');
}

/** The assets: exactly one of `assetIds` (1..MAX_SHARE_ITEMS distinct positive ids) and `lightboxId`. */
export function shareSource(
  assetIds: unknown,
  lightboxId: unknown,
): { assetIds: number[] } | { lightboxId: number } {
  const isId = (value: unknown): value is number =>
    typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 2 ** 31 - 1;
  if ((assetIds === undefined) === (lightboxId === undefined)) {
    throw new InvalidInput('give either assetIds or lightboxId');
  }
  if (lightboxId !== undefined) {
    if (!isId(lightboxId)) throw new InvalidInput('lightboxId must be a positive integer');
    return { lightboxId };
  }
  if (!Array.isArray(assetIds) || assetIds.length === 0 || !assetIds.every(isId)) {
    throw new InvalidInput('assetIds must be a non-empty array of asset ids');
  }
  if (assetIds.length > MAX_SHARE_ITEMS)
    throw new InvalidInput(`a share holds at most ${MAX_SHARE_ITEMS} assets`);
  return { assetIds: [...new Set(assetIds)] };
}

/** Why a share's public URLs answer 404: revoked, expired or out of downloads (never told apart). */
export function isShareOpen(
  share: { revokedAt: Date | null; expiresAt: Date; maxDownloads: number | null; downloads: number },
  now: Date,
): boolean {
  return (
    share.revokedAt === null &&
    share.expiresAt.getTime() > now.getTime() &&
    (share.maxDownloads === null || share.downloads < share.maxDownloads)
  );
}
