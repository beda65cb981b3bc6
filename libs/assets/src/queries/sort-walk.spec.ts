import { probeWordPays, TEXT_WALK_SHARE_OF_ESTIMATE, walkMayPay, walkPays } from './sort-walk';

// The figures of the 1M benchmark (bench/results/asset-search.md): 996,630 assets by the highest id; the
// attribute filter matches 18,153 (3,820 for the quarter viewer, who sees 0.25 of the library), and
// MariaDB estimates 40,922 rows for it; pages of 100 ask for 101 rows.
const ASSETS = 996_630;
const ESTIMATE = 40_922;

describe('walkMayPay (before counting, from the plan estimate)', () => {
  const cases: Array<[string, number, number, boolean]> = [
    ['a full viewer, page 1: the walk reads about 2,400 entries', 101, 1, true],
    ['a quarter viewer, page 1: about 10,000 entries, more than a fifth of the estimate', 101, 0.25, false],
    ['a full viewer, page 50: about 124,000 entries', 5_101, 1, false],
  ];
  it.each(cases)('%s', (_name, wanted, share, expected) => {
    expect(walkMayPay(wanted, ASSETS, ESTIMATE, share)).toBe(expected);
  });

  it('walks a text sort more readily: its general query looks up every match in the text copies', () => {
    // keywords=misoba sorted by title: 16,434 rows estimated, the walk about 6,000 entries.
    expect(walkMayPay(101, ASSETS, 16_434)).toBe(false);
    expect(walkMayPay(101, ASSETS, 16_434, 1, TEXT_WALK_SHARE_OF_ESTIMATE)).toBe(true);
    expect(walkMayPay(101, ASSETS, 16_434, 0.25, TEXT_WALK_SHARE_OF_ESTIMATE)).toBe(false);
  });

  it('walks a broad filter deep into its pages, and never one with no estimated rows', () => {
    expect(walkMayPay(5_101, ASSETS, 900_000)).toBe(true);
    expect(walkMayPay(101, ASSETS, 0)).toBe(false);
    expect(walkMayPay(101, ASSETS, ESTIMATE, 0)).toBe(false);
  });
});

describe('walkPays (after counting, from the total)', () => {
  it('walks while about 50,000 entries at most are read', () => {
    expect(walkPays(101, ASSETS, 18_153)).toBe(true); // about 5,500 entries
    expect(walkPays(101, ASSETS, 3_820)).toBe(true); // about 26,000
    expect(walkPays(5_101, ASSETS, 18_153)).toBe(false); // about 280,000
    expect(walkPays(101, ASSETS, 0)).toBe(false);
  });
});

describe('probeWordPays (one word in a walk: probe it per asset, or gather its assets first)', () => {
  const ASSETS = 1_000_000;
  it('gathers a rarer word and probes a common one, as measured at 1M for a first page', () => {
    expect(probeWordPays(102, ASSETS, 16_051)).toBe(false); // rank 100: 22 ms gathered, 210 probed
    expect(probeWordPays(102, ASSETS, 40_710)).toBe(false); // rank 30: 17 and 22 ms
    expect(probeWordPays(102, ASSETS, 103_765)).toBe(true); // rank 10: 33 and 26 ms
    expect(probeWordPays(102, ASSETS, 192_828)).toBe(true); // rank 5: 54 and 9 ms
  });
  it('needs a commoner word the deeper the page, since the walk reads more per match', () => {
    expect(probeWordPays(102, ASSETS, 103_765)).toBe(true);
    expect(probeWordPays(10_102, ASSETS, 103_765)).toBe(false);
  });
  it("weighs a partial viewer's walk (its matches) against gathering the whole word", () => {
    // Rank 5 as the quarter viewer: 50,837 of 192,828 seen; probed 17-21 ms, gathered 75-82 ms.
    expect(probeWordPays(102, ASSETS, 50_837, 192_828)).toBe(true);
    expect(probeWordPays(102, ASSETS, 50_837)).toBe(false);
  });
});
