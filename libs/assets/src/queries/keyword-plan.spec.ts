import { TermQuery } from '../ports/asset-filter';
import { TokenMatch } from './keyword.sql';
import {
  chooseConjunctionForm,
  ConjunctionReader,
  keyProbeDriver,
  keyProbePays,
  planKeywords,
  TokenRowEstimator,
} from './keyword-plan';

describe('chooseConjunctionForm', () => {
  // probes ≈ rarest × 36 µs, grouped ≈ all rows × 0.6 µs (rows as MariaDB estimates them on the bench
  // database; measured: misoba nuba* 1.16 s by probes, 0.30 s grouped; misolo mi* 0.01-0.08 s by probes,
  // 0.95 s grouped; misoba b* 1.44 s by probes, 3.41 s grouped; misoba mi* 1.56 s, 1.02 s).
  const cases: Array<[string, number[], 'perToken' | 'grouped']> = [
    ['misoba nuba*: similar words', [33_414, 475_572], 'grouped'],
    ['misoba mi*: grouped still cheaper', [33_414, 1_422_192], 'grouped'],
    ['misoba b*: the common word makes grouping dearer', [33_414, 3_675_352], 'perToken'],
    ['misolo mi*: a rare word, few probes', [766, 1_422_192], 'perToken'],
    ['a word with no rows: no probe at all', [0, 50], 'perToken'],
    ['equal words', [500, 500], 'grouped'],
    ['three words, the rarest decides the probes', [2_000, 9_000, 9_000], 'grouped'],
    ['three words, one very common', [2_000, 9_000, 200_000], 'perToken'],
  ];

  it.each(cases)('%s', (_name, rows, expected) => {
    expect(chooseConjunctionForm(rows)).toBe(expected);
  });
});

const term = (word: string, prefix = false): TermQuery => ({ kind: 'term', tokens: [word], prefix });

/** Estimates like the repository (the rows of each condition); every call recorded. */
function estimator(rows: Record<string, number>) {
  const calls: string[][] = [];
  const key = (match: TokenMatch): string => `${match.token}${match.prefix ? '*' : ''}`;
  const estimate: TokenRowEstimator = (conditions) => {
    calls.push(conditions.map(key));
    return Promise.resolve(conditions.map((match) => rows[key(match)] ?? 0));
  };
  return { calls, estimate };
}

describe('planKeywords', () => {
  const rows = {
    misoba: 33_414,
    many: 40_000,
    'nuba*': 475_572,
    'b*': 3_675_352,
    misolo: 766,
    'mi*': 1_422_192,
  };
  // As MySQL's reader: the per-token form where the cost model keeps it; else the grouped scan finds two
  // assets, or too many to list (a conjunction with `many`).
  const read: ConjunctionReader = (conditions, _attributeIds, counted) =>
    Promise.resolve(
      chooseConjunctionForm(counted) === 'perToken'
        ? undefined
        : conditions.some((match) => match.token === 'many')
          ? 'grouped'
          : [3, 5],
    );
  const plan = async (query: TermQuery, attributeIds = [1, 2]) => {
    const { calls, estimate } = estimator(rows);
    const planned = await planKeywords({ query, attributeIds }, estimate, read);
    return { grouped: [...planned.keys()], forms: [...planned.values()], calls };
  };

  it('groups a conjunction of similar words, keeps the probes of a rare word beside a common one', async () => {
    const similar: TermQuery = { kind: 'and', items: [term('misoba'), term('nuba', true)] };
    const { grouped, forms, calls } = await plan(similar);
    expect(grouped).toEqual([similar]);
    expect(forms).toEqual([[3, 5]]);
    expect(calls).toEqual([['misoba', 'nuba*']]);
    expect((await plan({ kind: 'and', items: [term('misolo'), term('mi', true)] })).grouped).toEqual([]);
    expect((await plan({ kind: 'and', items: [term('misoba'), term('b', true)] })).grouped).toEqual([]);
  });

  it('keeps the grouped scan as a subquery when it matches too many assets to list', async () => {
    const many: TermQuery = { kind: 'and', items: [term('many'), term('nuba', true)] };
    expect((await plan(many)).forms).toEqual(['grouped']);
  });

  it('finds conjunctions inside OR and NOT, and a word of several tokens', async () => {
    const pair: TermQuery = { kind: 'and', items: [term('misoba'), term('nuba', true)] };
    const obrien: TermQuery = { kind: 'term', tokens: ['misoba', 'nuba'], prefix: true };
    const query: TermQuery = {
      kind: 'or',
      items: [
        pair,
        { kind: 'not', item: obrien },
        { kind: 'and', items: [term('misoba'), { kind: 'not', item: term('x') }] },
      ],
    };
    expect((await plan(query)).grouped).toEqual([pair, obrien]);
  });

  it('lists what the reader lists, from the rows estimated, as SQLite reads by probes', async () => {
    const pair: TermQuery = { kind: 'and', items: [term('misolo'), term('mi', true)] };
    const seen: number[][] = [];
    const probes: ConjunctionReader = (_conditions, _attributeIds, counted) => {
      seen.push([...counted]);
      return Promise.resolve([7]);
    };
    const { estimate } = estimator(rows);
    const planned = await planKeywords({ query: pair, attributeIds: [1] }, estimate, probes);
    expect([...planned]).toEqual([[pair, [7]]]);
    expect(seen).toEqual([[766, 1_422_192]]);
  });

  it('plans nothing for single words, no attributes, or a database that does not estimate', async () => {
    expect((await plan(term('misoba'))).calls).toEqual([]);
    expect((await plan({ kind: 'or', items: [term('misoba'), term('nuba')] })).calls).toEqual([]);
    const pair: TermQuery = { kind: 'and', items: [term('misoba'), term('nuba', true)] };
    expect((await plan(pair, [])).calls).toEqual([]);
    const sqlite: TokenRowEstimator = () => Promise.resolve(undefined);
    expect([...(await planKeywords({ query: pair, attributeIds: [1] }, sqlite, read))]).toEqual([]);
  });
});

describe('keyProbeDriver and keyProbePays (MySQL: the rarest condition probing the others by key)', () => {
  const word = (token: string) => ({ token, prefix: false });
  const prefix = (token: string) => ({ token, prefix: true });
  it('drives from the rarest when every other condition is an exact token, or from the one prefix', () => {
    expect(keyProbeDriver([word('bababa'), word('kebaba')], [2_255_842, 1_100_000])).toBe(1);
    expect(keyProbeDriver([prefix('nuba'), word('misoba')], [475_572, 33_414])).toBe(0);
    expect(keyProbeDriver([prefix('nuba'), prefix('mi')], [475_572, 1_400_000])).toBeUndefined();
  });
  it('pays for two common words (cheaper than the grouped scan), not for a rare one beside a common one', () => {
    // The two commonest words at 1M: grouped 2.7 s, probed by key 1.0 s.
    expect(keyProbePays([2_255_842, 1_100_000], 1)).toBe(true);
    // A prefix would drive from its whole range: the per-token probes of the rare word cost less.
    expect(keyProbePays([475_572, 33_414], 0)).toBe(false);
  });
});
