import { keepMsOf, MAX_KEEP_MS, MIN_KEEP_MS } from './provider-documents';

describe("keepMsOf: the provider's Cache-Control, within bounds", () => {
  it.each<[string | null, number]>([
    [null, 10 * 60_000],
    ['public', 10 * 60_000],
    ['public, max-age=3600', 3600_000],
    ['max-age="900", must-revalidate', 900_000],
    ['max-age=5', MIN_KEEP_MS],
    ['max-age=0', MIN_KEEP_MS],
    ['max-age=31536000', MAX_KEEP_MS],
    ['no-cache', MIN_KEEP_MS],
    ['private, no-store', MIN_KEEP_MS],
  ])('%s', (header, expected) => {
    expect(keepMsOf(header)).toBe(expected);
  });
});
