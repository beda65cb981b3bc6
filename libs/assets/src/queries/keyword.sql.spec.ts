import { DataSource } from 'typeorm';
import { TermQuery } from '../ports/asset-filter';
import {
  conjunctionTokens,
  keywordSql,
  PlannedConjunction,
  nextTokenSql,
  prefixBounds,
  probedAssetIdsSql,
  scannedAssetIdsSql,
} from './keyword.sql';
import { SqlParams } from './sql-params';

const term = (word: string, prefix = false): TermQuery => ({ kind: 'term', tokens: [word], prefix });

describe('keywordSql', () => {
  const sql = (query: TermQuery, attributes = [1, 2]) => {
    const params = new SqlParams();
    return { text: keywordSql(query, attributes, params), values: params.values };
  };

  it('matches a word through the token index of the searchable attributes', () => {
    expect(sql(term('bridge'))).toEqual({
      text: 'a.id IN (SELECT t.asset_id FROM asset_search_tokens t WHERE t.token = :s1 AND t.attribute_id IN (:...s0))',
      values: { s0: [1, 2], s1: 'bridge' },
    });
  });

  it('turns a prefix into a range on the token and an OR of words into one index scan', () => {
    const prefix = sql(term('bri', true), [3]);
    expect(prefix.text).toContain('(t.token >= :s1 AND t.token < :s2) AND t.attribute_id = :s0');
    expect(prefix.values).toMatchObject({ s1: 'bri', s2: 'brj' });
    expect(sql({ kind: 'or', items: [term('a'), term('b')] }).text).toBe(
      'a.id IN (SELECT t.asset_id FROM asset_search_tokens t WHERE (t.token = :s1 OR t.token = :s2) AND t.attribute_id IN (:...s0))',
    );
  });

  it('negates with NOT and matches nothing when no attribute is searchable', () => {
    const aNotB: TermQuery = { kind: 'and', items: [term('a'), { kind: 'not', item: term('b') }] };
    expect(sql(aNotB).text).toMatch(/^\(a\.id IN .* AND NOT \(a\.id IN .*\)\)$/);
    expect(sql(term('a'), []).text).toBe('1 = 0');
    expect(sql({ kind: 'not', item: term('a') }, []).text).toBe('NOT (1 = 0)');
  });
});

describe('keywordSql with a planned conjunction (one grouped scan)', () => {
  const misobaNuba: TermQuery = { kind: 'and', items: [term('misoba'), term('nuba', true)] };

  it('reads every token of the conjunction once, grouped by asset, each token required', () => {
    const params = new SqlParams();
    expect(keywordSql(misobaNuba, [1, 2], params, new Map([[misobaNuba, 'grouped' as const]]))).toBe(
      'a.id IN (SELECT t.asset_id FROM asset_search_tokens t WHERE (t.token = :s1 OR (t.token >= :s2 AND t.token < :s3)) ' +
        'AND t.attribute_id IN (:...s4) GROUP BY t.asset_id ' +
        'HAVING MAX(t.token = :s1) = 1 AND MAX((t.token >= :s2 AND t.token < :s3)) = 1)',
    );
    expect(params.values).toMatchObject({ s1: 'misoba', s2: 'nuba', s3: 'nubb', s4: [1, 2] });
  });

  it('uses the matches read beforehand when the plan lists them (none: nothing matches)', () => {
    const params = new SqlParams();
    expect(keywordSql(misobaNuba, [1, 2], params, new Map([[misobaNuba, [7, 9]]]))).toBe('a.id IN (:...s1)');
    expect(params.values.s1).toEqual([7, 9]);
    expect(keywordSql(misobaNuba, [1, 2], new SqlParams(), new Map([[misobaNuba, []]]))).toBe('1 = 0');
  });

  it('groups only conjunctions of plain words, each token once', () => {
    const oBrien: TermQuery = { kind: 'term', tokens: ['o', 'bri'], prefix: true };
    expect(conjunctionTokens(oBrien)).toEqual([
      { token: 'o', prefix: false },
      { token: 'bri', prefix: true },
    ]);
    expect(conjunctionTokens({ kind: 'and', items: [term('a'), term('a')] })).toBeUndefined();
    expect(
      conjunctionTokens({ kind: 'and', items: [term('a'), { kind: 'not', item: term('b') }] }),
    ).toBeUndefined();
    expect(conjunctionTokens({ kind: 'or', items: [term('a'), term('b')] })).toBeUndefined();
    expect(conjunctionTokens(term('a'))).toBeUndefined();
  });
});

/** The grouped form must select exactly what the semi-join per token selects. */
describe('the grouped form of a conjunction against the per-token form', () => {
  const WORDS = ['apple', 'apricot', 'ban', 'banana', 'band', 'bandana', 'can', 'cane', 'o', 'brien', 'bri'];
  const ATTRIBUTES = [1, 2, 3];
  const ASSETS = 120;
  let dataSource: DataSource;
  const rows: Array<{ assetId: number; token: string; attributeId: number }> = [];

  beforeAll(async () => {
    dataSource = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    await dataSource.query('CREATE TABLE assets (id INTEGER PRIMARY KEY)');
    await dataSource.query(
      'CREATE TABLE asset_search_tokens (token TEXT NOT NULL, asset_id INTEGER NOT NULL, attribute_id INTEGER NOT NULL, ' +
        'PRIMARY KEY (token, asset_id, attribute_id))',
    );
    // A fixed pseudo-random spread: each asset holds a few words, each in one or two attributes.
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const seen = new Set<string>();
    for (let assetId = 1; assetId <= ASSETS; assetId += 1) {
      await dataSource.query('INSERT INTO assets VALUES (?)', [assetId]);
      for (let k = next(6); k >= 0; k -= 1) {
        const token = WORDS[next(WORDS.length)];
        for (const attributeId of [ATTRIBUTES[next(3)], ATTRIBUTES[next(3)]]) {
          const key = `${token}/${assetId}/${attributeId}`;
          if (seen.has(key)) continue;
          seen.add(key);
          rows.push({ assetId, token, attributeId });
          await dataSource.query('INSERT INTO asset_search_tokens VALUES (?, ?, ?)', [
            token,
            assetId,
            attributeId,
          ]);
        }
      }
    }
  });

  afterAll(async () => {
    await dataSource?.destroy();
  });

  async function selected(
    query: TermQuery,
    attributeIds: number[],
    plan?: Map<TermQuery, PlannedConjunction>,
  ): Promise<number[]> {
    const params = new SqlParams();
    const sql = keywordSql(query, attributeIds, params, plan);
    const form = plan?.get(query);
    if (form === 'grouped') expect(sql).toContain('GROUP BY t.asset_id');
    if (typeof form === 'object' && 'driving' in form) expect(sql).toContain('EXISTS (SELECT 1 FROM');
    const found: Array<{ id: number }> = await dataSource
      .createQueryBuilder()
      .select('a.id', 'id')
      .from('assets', 'a')
      .where(sql, params.values)
      .orderBy('a.id')
      .getRawMany();
    return found.map((row) => Number(row.id));
  }

  /** The rows of `sql` with its parameters (MySQL's FORCE INDEX left out: the rows do not depend on it). */
  async function rowsOf<T>(sql: string, params: SqlParams): Promise<T[]> {
    const [text, parameters] = dataSource.driver.escapeQueryWithParameters(
      sql.replace(' FORCE INDEX (PRIMARY)', ''),
      params.values,
    );
    return (await dataSource.query(text, parameters)) as T[];
  }

  /** The asset ids `sql` selects, ascending. */
  async function assetIdsOf(sql: string, params: SqlParams): Promise<number[]> {
    const found = await rowsOf<{ asset_id: number }>(sql, params);
    return found.map((row) => Number(row.asset_id)).sort((a, b) => a - b);
  }

  /** The assets with every token of `terms` in one of the attributes (any of them, each token its own). */
  function expected(terms: TermQuery[], attributeIds: number[]): number[] {
    const ids: number[] = [];
    for (let assetId = 1; assetId <= ASSETS; assetId += 1) {
      const own = rows.filter((row) => row.assetId === assetId && attributeIds.includes(row.attributeId));
      const has = (token: string, prefix: boolean): boolean =>
        own.some((row) => (prefix ? row.token.startsWith(token) : row.token === token));
      const all = terms.every(
        (item) =>
          item.kind === 'term' &&
          item.tokens.every((token, i) => has(token, item.prefix && i === item.tokens.length - 1)),
      );
      if (all) ids.push(assetId);
    }
    return ids;
  }

  const oBrien: TermQuery = { kind: 'term', tokens: ['o', 'brien'], prefix: false };
  const oBri: TermQuery = { kind: 'term', tokens: ['o', 'bri'], prefix: true };
  const cases: Array<[string, TermQuery[], number[]]> = [
    ['two exact words', [term('apple'), term('can')], [1, 2, 3]],
    ['an exact word and a prefix', [term('apple'), term('ban', true)], [1, 2, 3]],
    ['two prefixes, one inside the other', [term('ban', true), term('band', true)], [1, 2, 3]],
    ['three words, prefixes and exact', [term('ap', true), term('bandana'), term('ca', true)], [1, 2, 3]],
    ['a prefix and the exact word it starts', [term('ban', true), term('ban')], [1, 2, 3]],
    ['a word of two tokens', [oBrien], [1, 2, 3]],
    ['a word of two tokens, the last a prefix, and another word', [oBri, term('apple')], [1, 2, 3]],
    ['words in different attributes', [term('apple'), term('banana')], [1, 2]],
    ['one attribute', [term('apple'), term('ban', true)], [2]],
  ];

  it.each(cases)('%s: the same assets', async (_name, terms, attributeIds) => {
    const query: TermQuery = terms.length === 1 ? terms[0] : { kind: 'and', items: terms };
    const perToken = await selected(query, attributeIds);
    expect(perToken).toEqual(expected(terms, attributeIds));
    expect(await selected(query, attributeIds, new Map([[query, 'grouped' as const]]))).toEqual(perToken);
  });

  it.each(cases)(
    '%s: the same assets scanning, or driving from, any one condition against the others',
    async (_name, terms, attributeIds) => {
      const query: TermQuery = terms.length === 1 ? terms[0] : { kind: 'and', items: terms };
      const tokens = conjunctionTokens(query) ?? [];
      expect(tokens.length).toBeGreaterThan(1);
      for (let scanned = 0; scanned < tokens.length; scanned += 1) {
        const params = new SqlParams();
        const sql = scannedAssetIdsSql(tokens, attributeIds, params, scanned);
        expect(await assetIdsOf(sql, params)).toEqual(expected(terms, attributeIds));
        // The plan's `{ driving }`: that condition's rows probing the others, as a subquery of the filter.
        const driven = await selected(query, attributeIds, new Map([[query, { driving: scanned }]]));
        expect({ scanned, driven }).toEqual({ scanned, driven: expected(terms, attributeIds) });
      }
    },
  );

  it.each(cases)(
    '%s: the same assets scanning any one condition in two slices of the assets, its tokens listed',
    async (_name, terms, attributeIds) => {
      const query: TermQuery = terms.length === 1 ? terms[0] : { kind: 'and', items: terms };
      const tokens = conjunctionTokens(query) ?? [];
      for (let scanned = 0; scanned < tokens.length; scanned += 1) {
        const { token, prefix } = tokens[scanned];
        const covered = [...new Set(rows.map((row) => row.token))].filter((candidate) =>
          prefix ? candidate.startsWith(token) : candidate === token,
        );
        const found: number[] = [];
        for (const [fromAssetId, toAssetId] of [
          [1, 40],
          [41, Number.MAX_SAFE_INTEGER],
        ]) {
          const params = new SqlParams();
          const slice = { tokens: covered, fromAssetId, toAssetId };
          found.push(
            ...(await assetIdsOf(scannedAssetIdsSql(tokens, attributeIds, params, scanned, slice), params)),
          );
        }
        expect(found.sort((a, b) => a - b)).toEqual(expected(terms, attributeIds));
      }
    },
  );

  it('reads out the tokens a prefix covers, one step each, and no token outside it', async () => {
    const read = async (prefix: string): Promise<string[]> => {
      const tokens: string[] = [];
      for (;;) {
        const params = new SqlParams();
        const sql = nextTokenSql({ ...prefixBounds(prefix), after: tokens[tokens.length - 1] }, params);
        const [row] = await rowsOf<{ token: string }>(sql, params);
        if (row === undefined) return tokens;
        tokens.push(row.token);
      }
    };
    for (const prefix of ['ban', 'ap', 'zz', 'o']) {
      const covered = [...new Set(rows.map((row) => row.token))].filter((token) => token.startsWith(prefix));
      expect(await read(prefix)).toEqual(covered.sort());
    }
  });

  it.each(cases)(
    '%s: the same assets driven from any one condition, probing the others',
    async (_name, terms, attributeIds) => {
      const query: TermQuery = terms.length === 1 ? terms[0] : { kind: 'and', items: terms };
      const tokens = conjunctionTokens(query) ?? [];
      for (let driving = 0; driving < tokens.length; driving += 1) {
        const params = new SqlParams();
        const sql = probedAssetIdsSql(tokens, attributeIds, params, driving);
        expect(await assetIdsOf(sql, params)).toEqual(expected(terms, attributeIds));
      }
    },
  );

  it('groups a conjunction inside OR and NOT the same way, and every case matches some assets', async () => {
    const pair: TermQuery = { kind: 'and', items: [term('apple'), term('ban', true)] };
    const query: TermQuery = {
      kind: 'or',
      items: [
        { kind: 'not', item: pair },
        { kind: 'and', items: [term('can'), { kind: 'not', item: oBri }] },
      ],
    };
    expect(
      await selected(
        query,
        [1, 3],
        new Map<TermQuery, 'grouped'>([
          [pair, 'grouped'],
          [oBri, 'grouped'],
        ]),
      ),
    ).toEqual(await selected(query, [1, 3]));
    for (const [, terms, attributeIds] of cases)
      expect(expected(terms, attributeIds).length).toBeGreaterThan(0);
  });

  it('an asset with one word in one attribute and the other in another matches', async () => {
    await dataSource.query('INSERT INTO assets VALUES (?)', [ASSETS + 1]);
    await dataSource.query('INSERT INTO asset_search_tokens VALUES (?, ?, ?), (?, ?, ?)', [
      'zebra',
      ASSETS + 1,
      1,
      'zulu',
      ASSETS + 1,
      3,
    ]);
    const query: TermQuery = { kind: 'and', items: [term('zebra'), term('zu', true)] };
    expect(await selected(query, [1, 3], new Map([[query, 'grouped' as const]]))).toEqual([ASSETS + 1]);
    expect(await selected(query, [1, 2], new Map([[query, 'grouped' as const]]))).toEqual([]);
  });
});
