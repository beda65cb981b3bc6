import { InvalidInput } from '@dam/errors';
import {
  isShareOpen,
  isShareTokenShaped,
  newShareToken,
  shareExpiry,
  shareMaxDownloads,
  shareRendition,
  shareSource,
  shareTokenHash,
} from './share-rules';

const now = new Date('2026-01-01T00:00:00Z');
const days = (n: number) => new Date(now.getTime() + n * 24 * 3600 * 1000);

describe('share rules', () => {
  it('makes tokens of 256 random bits, stored as their SHA-256', () => {
    const [a, b] = [newShareToken(), newShareToken()];
    expect(a).not.toBe(b);
    expect(isShareTokenShaped(a)).toBe(true);
    expect(Buffer.from(a, 'base64url')).toHaveLength(32);
    expect(shareTokenHash(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(shareTokenHash(a)).not.toContain(a);
    expect(isShareTokenShaped('../etc')).toBe(false);
  });

  it.each([
    [undefined, 90, days(7)],
    [null, 90, days(7)],
    [undefined, 3, days(3)],
    ['2026-01-31T00:00:00Z', 90, new Date('2026-01-31T00:00:00Z')],
    ['2026-01-02T01:00:00+01:00', 90, new Date('2026-01-02T00:00:00Z')],
    [days(90).toISOString(), 90, days(90)],
    ['2026-01-31T00:00:00.999Z', 90, new Date('2026-01-31T00:00:00Z')],
  ])('expiresAt %p with at most %p days is %p', (requested, maxDays, expected) => {
    expect(shareExpiry(requested, now, maxDays)).toEqual(expected);
  });

  it.each([
    ['2025-12-31T23:59:59Z', 'in the future'],
    [now.toISOString(), 'in the future'],
    [new Date(days(90).getTime() + 1000).toISOString(), 'at most 90 days'],
    ['2026-01-05', 'ISO 8601'],
    ['tomorrow', 'ISO 8601'],
    [12, 'ISO 8601'],
  ])('refuses expiresAt %p (%s)', (requested, message) => {
    expect(() => shareExpiry(requested, now, 90)).toThrow(InvalidInput);
    expect(() => shareExpiry(requested, now, 90)).toThrow(message);
  });

  it.each([
    [undefined, 'original'],
    ['display', 'display'],
    ['preview', 'preview'],
  ])('rendition %p is %p', (requested, expected) => {
    expect(shareRendition(requested)).toBe(expected);
  });

  it.each(['thumbnail', 'ORIGINAL', 1])('refuses rendition %p', (requested) => {
    expect(() => shareRendition(requested)).toThrow(InvalidInput);
  });

  it.each([0, -1, 1.5, '3', true])('refuses maxDownloads %p', (requested) => {
    expect(() => shareMaxDownloads(requested)).toThrow(InvalidInput);
  });

  it.each([
    [[1, 2, 2], undefined, { assetIds: [1, 2] }],
    [undefined, 4, { lightboxId: 4 }],
  ])('reads assetIds %p / lightboxId %p', (assetIds, lightboxId, expected) => {
    expect(shareSource(assetIds, lightboxId)).toEqual(expected);
  });

  it.each([
    [undefined, undefined],
    [[1], 2],
    [[], undefined],
    [['1'], undefined],
    [[0], undefined],
    [undefined, 'x'],
  ])('refuses assetIds %p with lightboxId %p', (assetIds, lightboxId) => {
    expect(() => shareSource(assetIds, lightboxId)).toThrow(InvalidInput);
  });

  const share = { revokedAt: null, expiresAt: days(1), maxDownloads: null, downloads: 0 };
  it.each([
    [share, true],
    [{ ...share, revokedAt: now }, false],
    [{ ...share, expiresAt: now }, false],
    [{ ...share, maxDownloads: 2, downloads: 1 }, true],
    [{ ...share, maxDownloads: 2, downloads: 2 }, false],
  ])('%p is open: %p', (candidate, expected) => {
    expect(isShareOpen(candidate, now)).toBe(expected);
  });
});
