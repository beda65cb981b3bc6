import { AccessGrants, Permission, Viewer } from '@dam/access';
import { DataSource } from 'typeorm';
import { TermQuery } from '../ports/asset-filter';
import { AssetRecord } from '../ports/asset-state';
import { awaitsUploadApproval, hasPendingEdit, isApproved } from '../rules/approval-state';
import { assetVisibleTo, visibleLevelSets } from '../rules/asset-visibility';
import {
  approvedSql,
  awaitingUploadApprovalSql,
  conjunctionTokens,
  filterConditions,
  keywordSql,
  nextTokenSql,
  prefixBounds,
  probedAssetIdsSql,
  scannedAssetIdsSql,
  pendingEditSql,
  SqlParams,
  visibilitySql,
} from './asset-filter.sql';
import { AssetQueriesRepository, usernameRankSql } from './asset-queries.repository';

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
    plan?: Map<TermQuery, 'grouped'>,
  ): Promise<number[]> {
    const params = new SqlParams();
    const sql = keywordSql(query, attributeIds, params, plan);
    if (plan !== undefined) expect(sql).toContain('GROUP BY t.asset_id');
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
    '%s: the same assets scanning any one condition against the others',
    async (_name, terms, attributeIds) => {
      const query: TermQuery = terms.length === 1 ? terms[0] : { kind: 'and', items: terms };
      const tokens = conjunctionTokens(query) ?? [];
      expect(tokens.length).toBeGreaterThan(1);
      for (let scanned = 0; scanned < tokens.length; scanned += 1) {
        const params = new SqlParams();
        const sql = scannedAssetIdsSql(tokens, attributeIds, params, scanned);
        expect(await assetIdsOf(sql, params)).toEqual(expected(terms, attributeIds));
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

describe('filterConditions', () => {
  it('adds no condition for a viewer who sees everything, and matches nothing for empty link lists', () => {
    const params = new SqlParams();
    const everything: Viewer = { actor: ACTOR, grants: AccessGrants.everything([1]) };
    expect(filterConditions({ visibleTo: everything }, params)).toEqual([]);
    expect(
      filterConditions(
        {
          categoryIds: [],
          attributes: { conjunction: 'OR', conditions: [{ kind: 'addedBy', userIds: [] }] },
        },
        params,
      ),
    ).toEqual(['(1 = 0)', '1 = 0']);
  });

  it('matches "added by" on user ids without reading users', () => {
    const params = new SqlParams();
    expect(
      filterConditions(
        { attributes: { conjunction: 'AND', conditions: [{ kind: 'addedBy', userIds: [4] }] } },
        params,
      ),
    ).toEqual(['(a.added_by_user_id IN (:...s0))']);
  });

  it('ranks uploaders by the given username order', () => {
    expect(usernameRankSql([7, 3])).toBe('CASE a.added_by_user_id WHEN 7 THEN 0 WHEN 3 THEN 1 END');
    expect(usernameRankSql([])).toBe('NULL');
  });
});

const ACTOR = { id: 1, username: 'actor', isAdmin: false, isApplication: false };
const LEVELS = [1, 2];
const LEVEL_SETS = [[1], [2], [1, 2], []];
const PERMISSION_SETS: Permission[][] = [[], ['view'], ['approve'], ['view', 'approve']];

interface Fixture {
  record: AssetRecord;
  accessLevelIds: number[];
  editRow: boolean;
}

/** Every combination of the states the rules look at. */
function everyAsset(): Fixture[] {
  const fixtures: Fixture[] = [];
  const flags = [false, true];
  let id = 0;
  for (const submitted of flags)
    for (const uploadPending of flags)
      for (const contentPending of flags)
        for (const editRow of flags)
          for (const addedByUserId of [null, 1, 2])
            for (const accessLevelIds of LEVEL_SETS) {
              id += 1;
              const at = new Date(0);
              fixtures.push({
                record: {
                  id,
                  submitted,
                  uploadPending,
                  contentPending,
                  archived: false,
                  type: 'File',
                  assetTypeId: null,
                  addedByUserId,
                  createdAt: at,
                  updatedAt: at,
                },
                accessLevelIds,
                editRow,
              });
            }
  return fixtures;
}

/** Every viewer: privileged, and each combination of permissions on each level. */
function everyViewer(): Viewer[] {
  const viewers: Viewer[] = [{ actor: ACTOR, grants: AccessGrants.everything(LEVELS) }];
  for (const first of PERMISSION_SETS)
    for (const second of PERMISSION_SETS) {
      const byLevel = new Map<number, Set<Permission>>([
        [1, new Set(first)],
        [2, new Set(second)],
      ]);
      viewers.push({ actor: ACTOR, grants: AccessGrants.of(byLevel, LEVELS) });
    }
  return viewers;
}

/** The SQL forms of the rules must select exactly the assets the in-memory rules accept. */
describe('the SQL forms of the asset rules', () => {
  let dataSource: DataSource;
  const fixtures = everyAsset();
  /** The sets of levels of the fixtures (as asset_level_sets numbers them), by their ordered ids. */
  const levelSets = new Map<string, { levelSetId: number; accessLevelIds: number[] }>();

  beforeAll(async () => {
    dataSource = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    await dataSource.query(
      'CREATE TABLE assets (id INTEGER PRIMARY KEY, submitted BOOLEAN NOT NULL, upload_pending BOOLEAN NOT NULL, ' +
        'content_pending BOOLEAN NOT NULL, added_by_user_id INTEGER, level_set_id INTEGER)',
    );
    await dataSource.query(
      'CREATE TABLE asset_access_levels (asset_id INTEGER, access_level_id INTEGER, PRIMARY KEY (asset_id, access_level_id))',
    );
    await dataSource.query('CREATE TABLE asset_pending_edits (asset_id INTEGER PRIMARY KEY)');
    for (const { record, accessLevelIds, editRow } of fixtures) {
      const levels = [...accessLevelIds].sort((a, b) => a - b).join(',');
      if (!levelSets.has(levels)) levelSets.set(levels, { levelSetId: levelSets.size + 1, accessLevelIds });
      await dataSource.query('INSERT INTO assets VALUES (?, ?, ?, ?, ?, ?)', [
        record.id,
        Number(record.submitted),
        Number(record.uploadPending),
        Number(record.contentPending),
        record.addedByUserId,
        levelSets.get(levels)?.levelSetId,
      ]);
      for (const levelId of accessLevelIds) {
        await dataSource.query('INSERT INTO asset_access_levels VALUES (?, ?)', [record.id, levelId]);
      }
      if (editRow) await dataSource.query('INSERT INTO asset_pending_edits VALUES (?)', [record.id]);
    }
  });

  afterAll(async () => {
    await dataSource?.destroy();
  });

  async function selected(condition: (params: SqlParams) => string | undefined): Promise<number[]> {
    const params = new SqlParams();
    const sql = condition(params);
    const query = dataSource.createQueryBuilder().select('a.id', 'id').from('assets', 'a').orderBy('a.id');
    if (sql !== undefined) query.where(sql, params.values);
    const rows: Array<{ id: number }> = await query.getRawMany();
    return rows.map((row) => Number(row.id));
  }

  const ids = (accept: (fixture: Fixture) => boolean): number[] =>
    fixtures.filter(accept).map((fixture) => fixture.record.id);
  const pendingEdit = (fixture: Fixture): boolean => hasPendingEdit(fixture.record, fixture.editRow);

  it('visibility: visibilitySql agrees with assetVisibleTo for every viewer', async () => {
    for (const viewer of everyViewer()) {
      expect(await selected((params) => visibilitySql(viewer, params))).toEqual(
        ids((fixture) =>
          assetVisibleTo(viewer, { asset: fixture.record, accessLevelIds: fixture.accessLevelIds }),
        ),
      );
    }
  });

  it('visibility through the sets of levels: the row test agrees with assetVisibleTo for every viewer', async () => {
    expect(levelSets.size).toBe(LEVEL_SETS.length);
    for (const viewer of everyViewer()) {
      const sets = visibleLevelSets(viewer, levelSets.values());
      expect(await selected((params) => visibilitySql(viewer, params, true, sets))).toEqual(
        ids((fixture) =>
          assetVisibleTo(viewer, { asset: fixture.record, accessLevelIds: fixture.accessLevelIds }),
        ),
      );
    }
  });

  it('approval state: approved, pending edit and awaiting upload approval agree, both ways', async () => {
    const approved = ids((fixture) => isApproved(fixture.record, pendingEdit(fixture)));
    expect(await selected((params) => approvedSql(params))).toEqual(approved);
    expect(await selected((params) => filterConditions({ approved: false }, params)[0])).toEqual(
      ids((fixture) => !isApproved(fixture.record, pendingEdit(fixture))),
    );
    expect(await selected((params) => pendingEditSql(params))).toEqual(ids(pendingEdit));
    expect(await selected((params) => filterConditions({ pendingEdit: false }, params)[0])).toEqual(
      ids((fixture) => !pendingEdit(fixture)),
    );
    expect(await selected((params) => awaitingUploadApprovalSql(params))).toEqual(
      ids((fixture) => awaitsUploadApproval(fixture.record)),
    );
    expect(await selected((params) => filterConditions({ submitted: false }, params)[0])).toEqual(
      ids((fixture) => !fixture.record.submitted),
    );
  });

  it('counts per level: the fast visible form equals the general one and the rule', async () => {
    const repository = new AssetQueriesRepository(dataSource);
    for (const viewer of everyViewer()) {
      const viewable = LEVELS.filter((id) => viewer.grants.has(id, 'view'));
      const fast = viewer.grants.all
        ? await repository.countPer('accessLevel', { where: [], params: {} }, LEVELS)
        : await repository.countVisiblePerViewableLevel(
            ACTOR.id,
            viewer.grants.levelsWith('approve'),
            viewable,
          );
      const params = new SqlParams();
      const visible = visibilitySql(viewer, params);
      const general = await repository.countPer(
        'accessLevel',
        { where: visible === undefined ? [] : [visible], params: params.values },
        viewable.length === LEVELS.length || viewer.grants.all ? LEVELS : viewable,
      );
      for (const level of viewer.grants.all ? LEVELS : viewable) {
        const expected = fixtures.filter(
          (fixture) =>
            fixture.accessLevelIds.includes(level) &&
            assetVisibleTo(viewer, { asset: fixture.record, accessLevelIds: fixture.accessLevelIds }),
        ).length;
        expect(fast.get(level) ?? 0).toBe(expected);
        expect(general.get(level) ?? 0).toBe(expected);
      }
    }
  });
});
