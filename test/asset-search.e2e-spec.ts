import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { bearerRequests, itRefusesRequestsWithoutAToken } from './helpers/bearer-requests';
import { assetFactory, ATTRIBUTE, SearchWorld, searcher } from './helpers/search-fixtures';
import { TestApp } from './helpers/test-app';

describe('GET /rest/asset-search: parameters', () => {
  let t: TestApp;
  let w: SearchWorld;
  const api = bearerRequests(() => t);
  const createAsset = assetFactory(() => t);
  const a: Record<string, number> = {};

  const search = searcher(() => t);
  const refused = async (query: string): Promise<string> => {
    const response = await api.get(`/rest/asset-search?${query}`, t.adminToken);
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    return response.text;
  };

  beforeAll(async () => {
    t = await TestApp.start();
    w = await SearchWorld.create(t);
    a.tower = await createAsset({
      levels: [w.levelA],
      values: [
        [ATTRIBUTE.title, 'Tower Bridge at night'],
        [ATTRIBUTE.keywords, 'london, river'],
        [w.colour, 'Red'],
        [w.rank, '10'],
        [w.shot, '01/06/2023'],
      ],
      categories: [w.categoryP],
    });
    a.brooklyn = await createAsset({
      levels: [w.levelA1],
      values: [
        [ATTRIBUTE.title, 'Brooklyn Bridge'],
        [ATTRIBUTE.description, 'New York river crossing'],
        [w.colour, 'Blue'],
        [w.rank, '9'],
      ],
      categories: [w.categoryC],
    });
    a.creme = await createAsset({
      levels: [w.levelB],
      values: [
        [ATTRIBUTE.title, 'Crème brûlée recipe'],
        [w.colour, 'Red'],
        [w.rank, '100'],
        [w.notes, 'Caramelised sugar'],
      ],
    });
    a.plain = await createAsset({ levels: [w.levelB] });
    // Unsubmitted: left out of every search below unless unsubmitted=true.
    a.draft = await createAsset({
      levels: [w.levelA],
      submit: false,
      values: [[ATTRIBUTE.title, 'Draft bridge']],
    });
    await api
      .put(`/rest/assets/${a.brooklyn}`, t.adminToken, { parents: [t.rest(`assets/${a.tower}`)] })
      .expect(200);
    // The original filename is written by content uploads, which this spec does not exercise.
    await t.app
      .get(DataSource)
      .query(
        "INSERT INTO asset_attribute_values (asset_id, attribute_id, language, value) VALUES (?, ?, '', ?)",
        [a.tower, ATTRIBUTE.originalFilename, 'Tower_100%.JPG'],
      );
  });

  afterAll(async () => {
    await t?.close();
  });

  itRefusesRequestsWithoutAToken(() => t, [['GET', '/rest/asset-search']]);

  it('is 403 when a user who is not an administrator searches as someone else', async () => {
    const response = await api.get(`/rest/asset-search?userId=${w.other.id}`, w.viewer.token).expect(403);
    expect(response.text).toMatch(/act as another user/);
  });

  it('lists every submitted asset in id order without parameters, and the root links it', async () => {
    expect(await search('')).toEqual([a.tower, a.brooklyn, a.creme, a.plain]);
    expect(await search('unsubmitted=true')).toEqual([a.draft]);
    expect(await search('keywords=bridge&unsubmitted=true')).toEqual([a.draft]);
    const root = await api.get('/rest', t.adminToken).expect(200);
    expect(root.body.api_version_1_3.assetSearchUrl).toBe(t.rest('asset-search'));
  });

  it('answers summaries with absolute URLs, values as GET shows them and the display attributes', async () => {
    const response = await api.get(`/rest/asset-search?assetIds=${a.tower}`, t.adminToken).expect(200);
    const [summary] = response.body as Array<Record<string, unknown>>;
    const asset = (await api.get(`/rest/assets/${a.tower}`, t.adminToken).expect(200)).body;
    expect(summary).toMatchObject({
      id: a.tower,
      originalFilename: 'Tower_100%.JPG',
      fullAssetUrl: t.rest(`assets/${a.tower}`),
      thumbnailUrl: asset.thumbnailUrl,
      previewUrl: asset.previewUrl,
      unwatermarkedLargeImageUrl: asset.unwatermarkedLargeImageUrl,
      approved: true,
      typeId: 1,
      typeName: 'File',
      accessLevelIds: String(w.levelA),
    });
    expect(typeof summary.dateLastModifiedTimestamp).toBe('number');
    expect(Math.abs(Date.now() - Number(summary.dateLastModifiedTimestamp))).toBeLessThan(120_000);
    const attributes = summary.attributes as Array<{ name: string; value: string }>;
    expect(attributes).toContainEqual({ name: 'Shot on', value: '01/06/2023' });
    expect(attributes).toContainEqual({ name: 'Title', value: 'Tower Bridge at night' });
    expect(attributes.length).toBe((asset.attributes as unknown[]).length);
    expect(Array.isArray(summary.displayAttributes)).toBe(true);
  });

  describe('keywords', () => {
    it('match words of keyword-searchable attributes, case and accents aside', async () => {
      expect(await search('keywords=bridge')).toEqual([a.tower, a.brooklyn]);
      expect(await search('keywords=CREME')).toEqual([a.creme]);
      expect(await search('keywords=caramelised')).toEqual([a.creme]); // custom attribute flagged searchable
      expect(await search('keywords=red')).toEqual([]); // the list attribute is not keyword-searchable
    });

    it('combine with AND (also implicit), OR, NOT, parentheses, quotes and a * prefix', async () => {
      expect(await search('keywords=bridge river')).toEqual([a.tower, a.brooklyn]);
      expect(await search('keywords=bridge AND night')).toEqual([a.tower]);
      expect(await search('keywords=tower OR recipe')).toEqual([a.tower, a.creme]);
      expect(await search('keywords=bridge NOT brooklyn')).toEqual([a.tower]);
      expect(await search('keywords=NOT bridge')).toEqual([a.creme, a.plain]);
      expect(await search(`keywords=${encodeURIComponent('(tower OR brooklyn) AND york')}`)).toEqual([
        a.brooklyn,
      ]);
      expect(await search(`keywords=${encodeURIComponent('"new york"')}`)).toEqual([a.brooklyn]);
      expect(await search('keywords=broo*')).toEqual([a.brooklyn]);
      expect(await search('keywords=*')).toEqual([a.tower, a.brooklyn, a.creme, a.plain]);
    });

    it('read malformed queries as plain terms, never a 4xx', async () => {
      const keywords = (value: string) => search(`keywords=${encodeURIComponent(value)}`);
      expect(await keywords('bridge AND')).toEqual([a.tower, a.brooklyn]);
      expect(await keywords('(bridge')).toEqual([a.tower, a.brooklyn]);
      expect(await keywords('bridge)')).toEqual([a.tower, a.brooklyn]);
      expect(await keywords('"tower bridge')).toEqual([a.tower]);
      expect(await keywords('OR NOT bridge night"')).toEqual([a.tower]);
      expect(await keywords('-tower: bridge*')).toEqual([a.tower]);
      expect(await keywords(') * ( : - "')).toEqual([a.tower, a.brooklyn, a.creme, a.plain]);
      expect(await keywords(`tower ${'x'.repeat(2000)}`)).toEqual([a.tower]); // the cut word is dropped
      expect(await keywords(`bridge ${'x '.repeat(600)}`)).toEqual([]);
      expect(await keywords(`${'bridge '.repeat(200)}`)).toEqual([a.tower, a.brooklyn]);
    });

    it('answer 200 for any keywords string, and any word filter on a text attribute (property)', async () => {
      const wellFormed = (value: string): boolean => {
        try {
          encodeURIComponent(value);
          return true;
        } catch {
          return false;
        }
      };
      const anyText = fc.oneof(
        fc.string({ unit: 'grapheme', maxLength: 200 }),
        fc.string({ unit: 'binary', maxLength: 1200 }),
        fc
          .array(
            fc.constantFrom(
              'AND',
              'OR',
              'NOT',
              '(',
              ')',
              '"',
              '*',
              ':',
              '-',
              'bridge',
              'to*',
              '\u0000',
              '\n',
            ),
            { maxLength: 60 },
          )
          .map((parts) => parts.join(' ')),
        fc.constantFrom('x'.repeat(1001), `(${'a '.repeat(700)}`, '\u0000\u0007\u001b', '🌉 "', '％ＡＮＤ'),
      );
      await fc.assert(
        fc.asyncProperty(anyText.filter(wellFormed), fc.boolean(), async (value, asAttribute) => {
          const name = asAttribute ? `attribute_${w.notes}` : 'keywords';
          const response = await api.get(
            `/rest/asset-search?${name}=${encodeURIComponent(value)}&pageSize=5`,
            w.viewer.token,
          );
          expect(response.status).toBe(200);
          expect(Number(response.headers['x-total-count'])).toBeGreaterThanOrEqual(0);
        }),
        { seed: 15, numRuns: 60 },
      );
    });
  });

  describe('attribute_<id>', () => {
    it('matches list, numeric and date values exactly and text by words', async () => {
      expect(await search(`attribute_${w.colour}=Red`)).toEqual([a.tower, a.creme]);
      expect(await search(`attribute_${w.rank}=9`)).toEqual([a.brooklyn]);
      expect(await search(`attribute_${w.shot}=01/06/2023`)).toEqual([a.tower]);
      expect(await search(`attribute_${ATTRIBUTE.title}=bri*`)).toEqual([a.tower, a.brooklyn]);
      expect(await search(`attribute_${ATTRIBUTE.addedBy}=application`)).toHaveLength(4);
    });

    it('combines several with attributeQueryConjunction AND (default) or OR', async () => {
      expect(await search(`attribute_${w.colour}=Red&attribute_${w.rank}=100`)).toEqual([a.creme]);
      expect(
        await search(`attribute_${w.colour}=Blue&attribute_${w.rank}=100&attributeQueryConjunction=OR`),
      ).toEqual([a.brooklyn, a.creme]);
    });

    it('refuses unknown attributes, bad values and a bad conjunction with 400', async () => {
      expect(await refused('attribute_9999=x')).toBe('attribute_9999 names no attribute');
      expect(await refused(`attribute_${w.rank}=many`)).toBe(
        'attribute_' + w.rank + ' (Rank) must be a decimal number',
      );
      expect(await refused(`attribute_${w.shot}=2023-06-01`)).toMatch(/must be a date as DD\/MM\/YYYY/);
      expect(await refused('attribute_x=1')).toMatch(/attribute_x is not a search parameter/);
      expect(await refused(`attribute_${ATTRIBUTE.dateAdded}=01/01/2024`)).toMatch(/dateAddedLower/);
      expect(await refused(`attribute_${w.colour}=Red&attributeQueryConjunction=XOR`)).toBe(
        'attributeQueryConjunction must be AND or OR',
      );
    });
  });

  it('assetIds takes one id or a range, and refuses a backward or malformed one', async () => {
    expect(await search(`assetIds=${a.brooklyn}`)).toEqual([a.brooklyn]);
    expect(await search(`assetIds=${a.brooklyn}-${a.plain}`)).toEqual([a.brooklyn, a.creme, a.plain]);
    expect(await refused(`assetIds=${a.plain}-${a.tower}`)).toMatch(/runs backwards/);
    expect(await refused('assetIds=five')).toMatch(/assetIds must be an id or a range/);
  });

  it('assetTypeId selects by asset type; an unknown one is 400', async () => {
    expect(await search('assetTypeId=1')).toHaveLength(4); // File: the type of assets without content
    expect(await search('assetTypeId=2')).toEqual([]);
    expect(await refused('assetTypeId=99')).toBe('assetTypeId 99 names no asset type');
  });

  it('filename matches the original filename case-insensitively, * as a wildcard', async () => {
    expect(await search('filename=tower_100%25.jpg')).toEqual([a.tower]);
    expect(await search('filename=TOWER*')).toEqual([a.tower]);
    expect(await search('filename=tower')).toEqual([]);
    expect(await search('filename=tower_1%25%25.jpg')).toEqual([]);
  });

  it('dateAdded and dateMod bounds take ISO-8601 dates and date-times; malformed ones are 400', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect(await search(`dateAddedLower=${today}&dateAddedUpper=${today}`)).toHaveLength(4);
    expect(await search(`dateAddedLower=${tomorrow}`)).toEqual([]);
    expect(await search(`dateAddedUpper=${yesterday}`)).toEqual([]);
    expect(
      await search(`dateModLower=${yesterday}T00:00:00Z&dateModUpper=${tomorrow}T23:59:59%2B02:00`),
    ).toHaveLength(4);
    expect(await search(`dateModUpper=${yesterday}T23:59:59Z`)).toEqual([]);
    expect(await refused('dateAddedLower=31/12/2024')).toMatch(/dateAddedLower must be an ISO-8601 date/);
    expect(await refused('dateModUpper=2024-02-30')).toMatch(/dateModUpper must be an ISO-8601 date/);
  });

  it('category ids come repeated, comma-joined or indexed, with descendants on request', async () => {
    const p = 'descriptiveCategoryForm.categoryIds';
    expect(await search(`${p}=${w.categoryP}`)).toEqual([a.tower]);
    expect(await search(`${p}=${w.categoryP}&includeImplicitCategoryMembers=true`)).toEqual([
      a.tower,
      a.brooklyn,
    ]);
    expect(await search(`${p}=${w.categoryP},${w.categoryC}`)).toEqual([a.tower, a.brooklyn]);
    expect(await search(`${p}[0]=${w.categoryC}&${p}[1]=${w.categoryP}`)).toEqual([a.tower, a.brooklyn]);
    expect(await refused(`${p}=9999`)).toBe(`${p} 9999 names no category`);
    expect(await refused(`${p}=${w.categoryP}&includeImplicitCategoryMembers=maybe`)).toBe(
      'includeImplicitCategoryMembers must be true or false',
    );
  });

  it('permission category ids are access levels, with sub-levels on request', async () => {
    const p = 'permissionCategoryForm.categoryIds';
    expect(await search(`${p}=${w.levelA}`)).toEqual([a.tower]);
    expect(await search(`${p}=${w.levelA}&includeImplicitCategoryMembers=true`)).toEqual([
      a.tower,
      a.brooklyn,
    ]);
    expect(await search(`${p}=${w.levelB}&${p}=${w.levelA1}`)).toEqual([a.brooklyn, a.creme, a.plain]);
  });

  it('parentIds finds the children of assets', async () => {
    expect(await search(`parentIds=${a.tower}`)).toEqual([a.brooklyn]);
    expect(await search(`parentIds=${a.creme}`)).toEqual([]);
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

  beforeAll(async () => {
    t = await TestApp.start();
    level = (await SearchWorld.create(t)).levelA;
    // `harbour` on 41 assets, `lighthouse` on 6: more than four times as common (the scanned form).
    for (let i = 0; i < 40; i += 1) {
      const both = i % 13 === 0;
      const title = both ? `harbour lighthouse ${i}` : `harbour view ${i}`;
      (both ? ids.both : ids.common).push(
        await createAsset({ levels: [level], values: [[ATTRIBUTE.title, title]] }),
      );
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
    expect(ids.common).toHaveLength(36);
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
