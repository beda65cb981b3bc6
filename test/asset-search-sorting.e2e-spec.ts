import { bearerRequests } from './helpers/bearer-requests';
import { searchSampleSuite } from './helpers/asset-search-sample';
import { assetFactory, ATTRIBUTE, SearchWorld, searcher } from './helpers/search-fixtures';
import { TestApp } from './helpers/test-app';

describe('GET /rest/asset-search: parameters', () => {
  let t: TestApp;
  let w: SearchWorld;
  const api = bearerRequests(() => t);
  const a: Record<string, number> = {};

  const search = searcher(() => t);
  const refused = async (query: string): Promise<string> => {
    const response = await api.get(`/rest/asset-search?${query}`, t.adminToken);
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    return response.text;
  };

  const suite = searchSampleSuite();
  beforeAll(() => {
    ({ t, w } = suite);
    Object.assign(a, suite.sample);
  });

  describe('sorting', () => {
    const ranked = (): string =>
      `attribute_${w.colour}=Red&attribute_${w.colour}=Blue&attributeQueryConjunction=OR`;

    it('sorts by an attribute (numbers as numbers), descending on request, ties by id', async () => {
      expect(await search(`${ranked()}&sortAttributeId=${w.rank}`)).toEqual([a.brooklyn, a.tower, a.creme]);
      expect(await search(`${ranked()}&sortAttributeId=${w.rank}&sortDescending=true`)).toEqual([
        a.creme,
        a.tower,
        a.brooklyn,
      ]);
      expect(await search(`${ranked()}&sortAttributeId=${ATTRIBUTE.title}`)).toEqual([
        a.brooklyn,
        a.creme,
        a.tower,
      ]);
      expect(await search(`${ranked()}&sortAttributeId=${w.colour}`)).toEqual([a.brooklyn, a.tower, a.creme]);
      expect(await search('sortDescending=true')).toEqual([a.plain, a.creme, a.brooklyn, a.tower]);
      expect(await search(`sortAttributeId=${ATTRIBUTE.dateAdded}`)).toEqual([
        a.tower,
        a.brooklyn,
        a.creme,
        a.plain,
      ]);
    });

    it('puts assets without a value last in either direction, page by page as in one page', async () => {
      const ascending = [a.brooklyn, a.tower, a.creme, a.plain];
      const descending = [a.creme, a.tower, a.brooklyn, a.plain];
      for (const [order, expected] of [
        ['', ascending],
        ['&sortDescending=true', descending],
      ] as const) {
        const sorted = `sortAttributeId=${w.rank}${order}`;
        expect(await search(sorted)).toEqual(expected);
        const pages: number[] = [];
        for (let page = 0; page < 4; page++)
          pages.push(...(await search(`${sorted}&pageSize=1&page=${page}`)));
        expect(pages).toEqual(expected);
        expect(await search(`${sorted}&pageSize=2&page=1`)).toEqual(expected.slice(2));
        expect(await search(`${sorted}&pageSize=3&page=1`)).toEqual(expected.slice(3));
      }
      expect(await search(`sortAttributeId=${ATTRIBUTE.title}&sortDescending=true`)).toEqual([
        a.tower,
        a.creme,
        a.brooklyn,
        a.plain,
      ]);
    });

    it('follows a changed number into its new place', async () => {
      await api
        .put(`/rest/assets/${a.tower}`, t.adminToken, { attributes: [{ id: String(w.rank), value: '1000' }] })
        .expect(200);
      try {
        expect(await search(`sortAttributeId=${w.rank}&sortDescending=true&pageSize=1`)).toEqual([a.tower]);
        expect(await search(`sortAttributeId=${w.rank}&pageSize=2&page=1`)).toEqual([a.tower, a.plain]);
      } finally {
        await api
          .put(`/rest/assets/${a.tower}`, t.adminToken, { attributes: [{ id: String(w.rank), value: '10' }] })
          .expect(200);
      }
    });

    it('counts every match of a sorted search on every page, past the end and for a partial viewer', async () => {
      // A sort by value or uploader reads every match, and may count them in the same statement: the
      // total must be the filter's, whatever page the request asks for.
      const totalOf = async (query: string): Promise<string> => {
        const response = await api.get(`/rest/asset-search?${query}`, t.adminToken).expect(200);
        return String(response.headers['x-total-count']);
      };
      for (const viewer of ['', `&userId=${w.viewer.id}`]) {
        for (const filter of [ranked(), 'keywords=bridge', '']) {
          const expected = await totalOf(`${filter}${viewer}`);
          for (const sort of [w.rank, ATTRIBUTE.title, ATTRIBUTE.addedBy]) {
            // The last: so deep a page that on MySQL no walk of the sort index can pay for it.
            for (const page of [
              'pageSize=1&page=0',
              'pageSize=1&page=1',
              'pageSize=1&page=9',
              'pageSize=1000&page=60',
            ]) {
              expect(await totalOf(`${filter}${viewer}&sortAttributeId=${sort}&${page}`)).toBe(expected);
            }
          }
        }
      }
    });

    it('refuses an unknown or unsortable attribute with 400', async () => {
      expect(await refused('sortAttributeId=9999')).toBe('sortAttributeId 9999 names no attribute');
      expect(await refused(`sortAttributeId=${ATTRIBUTE.categories}`)).toMatch(
        /cannot be sorted by Categories/,
      );
      expect(await refused('sortAttributeId=x')).toBe('sortAttributeId must be a whole number');
    });
  });

  it('pages with X-Total-Count and Link to the end; past the end is []', async () => {
    const seen: number[] = [];
    for (let page = 0; page < 2; page++) {
      const response = await api
        .get(`/rest/asset-search?pageSize=3&page=${page}&keywords=*`, t.adminToken)
        .expect(200);
      expect(response.headers['x-total-count']).toBe('4');
      seen.push(...(response.body as Array<{ id: number }>).map((summary) => summary.id));
      if (page === 0) expect(response.headers.link).toContain('rel="next"');
    }
    expect(seen).toEqual([a.tower, a.brooklyn, a.creme, a.plain]);
    const past = await api.get('/rest/asset-search?pageSize=3&page=2', t.adminToken).expect(200);
    expect(past.body).toEqual([]);
    expect(past.headers['x-total-count']).toBe('4');
    expect(await refused('pageSize=1001')).toBe('pageSize must be at most 1000');
    expect(await refused('pageSize=0')).toMatch(/pageSize must be a whole number/);
    expect(await refused('page=-1')).toMatch(/page must be a whole number/);
  });
});

/**
 * A conjunction of a common word and a rare one. On MySQL the keyword plan estimates each word's rows and
 * reads such a pair in one statement (the common word's range scanned against the rare word's assets);
 * on SQLite each word is a semi-join. Either way the assets are those holding both.
 */
describe('GET /rest/asset-search: keywords, a common word AND a rare one', () => {
  let t: TestApp;
  let level: number;
  const createAsset = assetFactory(() => t);
  const search = searcher(() => t);
  const ids: Record<string, number[]> = { common: [], both: [], rare: [] };
  /** Each asset holding `harbour` without `lighthouse` in the order of its title (ties by id). */
  const byTitle: Array<{ id: number; title: string }> = [];

  beforeAll(async () => {
    t = await TestApp.start();
    level = (await SearchWorld.create(t)).levelA;
    // Enough more `harbour` (with scattered titles, the first three alike) that the first page sorted by
    // title walks the title copies and probes the word per asset (probeWordPays: 86 of ~88 assets, one asset
    // a page), the walk ending among the three alike.
    for (let i = 0; i < 45; i += 1) {
      const title = i % 15 === 0 ? 'harbour - alike' : `harbour ${((i * 37) % 45).toString(36)} quay`;
      const id = await createAsset({ levels: [level], values: [[ATTRIBUTE.title, title]] });
      ids.common.push(id);
      byTitle.push({ id, title });
    }
    // `harbour` on 41 assets, `lighthouse` on 6: more than four times as common (the scanned form).
    for (let i = 0; i < 40; i += 1) {
      const both = i % 13 === 0;
      const title = both ? `harbour lighthouse ${i}` : `harbour view ${i}`;
      const id = await createAsset({ levels: [level], values: [[ATTRIBUTE.title, title]] });
      (both ? ids.both : ids.common).push(id);
      if (!both) byTitle.push({ id, title });
    }
    ids.rare.push(await createAsset({ levels: [level], values: [[ATTRIBUTE.title, 'lighthouse alone']] }));
    ids.rare.push(
      await createAsset({
        levels: [level],
        values: [
          [ATTRIBUTE.description, 'a harbour'],
          [ATTRIBUTE.title, 'lighthouse'],
        ],
      }),
    );
  });

  afterAll(async () => {
    await t?.close();
  });

  it('finds the assets holding both, in any attributes, exact or by prefix, in either order', async () => {
    const expected = [...ids.both, ids.rare[1]];
    expect(expected).toHaveLength(5);
    expect(ids.common).toHaveLength(81);
    for (const keywords of [
      'harbour lighthouse',
      'lighthouse harbour',
      'harbour lightho*',
      'harb* lighthouse',
    ]) {
      expect({ keywords, found: await search(`keywords=${encodeURIComponent(keywords)}`) }).toEqual({
        keywords,
        found: expected,
      });
    }
    expect(await search('keywords=harbour%20lighthouse%20view')).toEqual([]);
    expect(await search('keywords=harbour%20NOT%20lighthouse')).toEqual(ids.common);
  });

  it('sorts the common word by title the same page by page (the first walked) as in one page', async () => {
    byTitle.sort((x, y) => (x.title < y.title ? -1 : x.title > y.title ? 1 : x.id - y.id));
    const query = `keywords=harbour%20NOT%20lighthouse&sortAttributeId=${ATTRIBUTE.title}`;
    expect(await search(`${query}&pageSize=200`)).toEqual(byTitle.map((asset) => asset.id));
    const word = `keywords=harbour&sortAttributeId=${ATTRIBUTE.title}`;
    const whole = await search(`${word}&pageSize=200`);
    expect(whole).toHaveLength(86);
    expect(whole.slice(0, 3)).toEqual(byTitle.slice(0, 3).map((asset) => asset.id));
    for (const [descending, order] of [
      [false, whole],
      [true, [...whole].reverse()],
    ] as const) {
      const paged: number[] = [];
      for (let page = 0; page < 4; page += 1) {
        paged.push(...(await search(`${word}&pageSize=1&page=${page}&sortDescending=${descending}`)));
      }
      expect({ descending, paged }).toEqual({ descending, paged: order.slice(0, 4) });
    }
  });
});

/**
 * A page sorted by a text reads each match's key from its sort copy (asset_sort_texts: the first 64
 * characters), and the whole value where the copy is cut short: the order must be that of the whole
 * values, by offset and by cursor, and follow an edit.
 */
describe('GET /rest/asset-search: sorted by a text longer than its sort copy', () => {
  let t: TestApp;
  const api = bearerRequests(() => t);
  const createAsset = assetFactory(() => t);
  const search = searcher(() => t);
  const a: Record<string, number> = {};
  const x64 = 'x'.repeat(64);

  beforeAll(async () => {
    t = await TestApp.start();
    const level = (await SearchWorld.create(t)).levelA;
    const titled = (title?: string) =>
      createAsset({
        levels: [level],
        values: [
          [ATTRIBUTE.keywords, 'sortable'],
          ...(title === undefined ? [] : [[ATTRIBUTE.title, title]]),
        ] as Array<[number, string]>,
      });
    // Created out of order, so that the id order is not the title order.
    a.longB = await titled(`${x64}b`);
    a.shorter = await titled(`${'x'.repeat(63)}y`);
    a.none = await titled();
    a.exact = await titled(x64);
    a.longA = await titled(`${x64}a and more`);
    a.apple = await titled('apple');
  });

  afterAll(async () => {
    await t?.close();
  });

  const ascending = (): number[] => [a.apple, a.exact, a.longA, a.longB, a.shorter, a.none];
  const descending = (): number[] => [a.shorter, a.longB, a.longA, a.exact, a.apple, a.none];

  /** Every id of the search, page by page along rel="next" (cursors). */
  const walk = async (query: string): Promise<number[]> => {
    const ids: number[] = [];
    let next: string | undefined = `/rest/asset-search?${query}`;
    while (next !== undefined) {
      const response = await api.get(next, t.adminToken).expect(200);
      ids.push(...(response.body as Array<{ id: number }>).map((summary) => summary.id));
      const link = /<([^>]+)>;\s*rel="next"/.exec(String(response.headers.link ?? ''));
      next = link === null ? undefined : new URL(link[1]).pathname + new URL(link[1]).search;
    }
    return ids;
  };

  it('orders by the whole value in either direction, by offset and by cursor, keyless last', async () => {
    const query = `keywords=sortable&sortAttributeId=${ATTRIBUTE.title}`;
    expect(await search(query)).toEqual(ascending());
    expect(await search(`${query}&sortDescending=true`)).toEqual(descending());
    expect(await walk(`${query}&pageSize=1`)).toEqual(ascending());
    expect(await walk(`${query}&sortDescending=true&pageSize=2`)).toEqual(descending());
    for (let page = 0; page < 6; page += 1) {
      expect(await search(`${query}&pageSize=1&page=${page}`)).toEqual([ascending()[page]]);
    }
  });

  it('pages by offset as one page lists them, values alike in their first 64 characters and in case', async () => {
    // Enough matches that on MySQL a small page walks the copies in order (and reads the ties whole).
    const level = (await SearchWorld.create(t)).levelA;
    const titles = Array.from({ length: 30 }, (_, i) =>
      i % 3 === 0
        ? `${x64}${String.fromCharCode(97 + ((i * 7) % 26))} tail`
        : i % 3 === 1
          ? `${i % 2 === 0 ? 'Alike' : 'alike'} ${(i * 13) % 30}`
          : `${x64}`,
    );
    for (const title of titles) {
      await createAsset({
        levels: [level],
        values: [
          [ATTRIBUTE.keywords, 'walkable'],
          [ATTRIBUTE.title, title],
        ],
      });
    }
    for (const order of ['', '&sortDescending=true']) {
      const query = `keywords=walkable&sortAttributeId=${ATTRIBUTE.title}${order}`;
      const whole = await search(`${query}&pageSize=1000`);
      expect(whole).toHaveLength(30);
      const paged: number[] = [];
      for (let page = 0; page < 15; page += 1)
        paged.push(...(await search(`${query}&pageSize=2&page=${page}`)));
      expect(paged).toEqual(whole);
      expect(await search(`${query}&pageSize=3&page=4`)).toEqual(whole.slice(12, 15));
    }
  });

  it('follows edits of a short value and of a long one past its first 64 characters', async () => {
    const edit = (id: number, title: string) =>
      api
        .put(`/rest/assets/${id}`, t.adminToken, {
          attributes: [{ id: String(ATTRIBUTE.title), value: title }],
        })
        .expect(200);
    await edit(a.longB, `${x64}0`);
    await edit(a.apple, 'zebra');
    const query = `keywords=sortable&sortAttributeId=${ATTRIBUTE.title}`;
    expect(await search(query)).toEqual([a.exact, a.longB, a.longA, a.shorter, a.apple, a.none]);
  });
});
