import { bearerRequests } from './helpers/bearer-requests';
import { assetFactory, ATTRIBUTE, SearchWorld } from './helpers/search-fixtures';
import { insertCategory } from './helpers/asset-permission-fixtures';
import { TestApp, TestUser } from './helpers/test-app';
import { nodes, parseXml, texts } from './helpers/xml';

interface FacetValue {
  value: number | string;
  url?: string;
  label: string;
  count: number;
}

interface Envelope {
  results: Array<{ id: number }>;
  total?: number;
  facets: Record<string, FacetValue[]>;
}

/** The target of one relation of a Link header, as a path with query. */
function linkOf(header: string | undefined, rel: string): string | undefined {
  for (const part of (header ?? '').split(/,\s*(?=<)/)) {
    const match = /^<([^>]+)>;\s*rel="([^"]+)"$/.exec(part.trim());
    if (match !== null && match[2] === rel) {
      const url = new URL(match[1]);
      return `${url.pathname}${url.search}`;
    }
  }
  return undefined;
}

describe('GET /rest/asset-search: cursors (keyset pages), count=false and facets', () => {
  let t: TestApp;
  let w: SearchWorld;
  let partial: TestUser;
  const api = bearerRequests(() => t);
  const createAsset = assetFactory(() => t);
  const created: number[] = [];
  let extra = 0;

  /** Every id of a search on one page. */
  const all = async (query: string, token = t.adminToken): Promise<number[]> => {
    const response = await api.get(`/rest/asset-search?${query}&pageSize=1000`, token).expect(200);
    return (response.body as Array<{ id: number }>).map((summary) => summary.id);
  };

  /** Follows rel="next" from the first page; `between` runs after each page. */
  const walk = async (
    query: string,
    between: () => Promise<void> = async () => undefined,
    token = t.adminToken,
  ): Promise<{ ids: number[]; pages: number; totals: unknown[] }> => {
    const ids: number[] = [];
    const totals: unknown[] = [];
    let next: string | undefined = `/rest/asset-search?${query}`;
    let pages = 0;
    while (next !== undefined) {
      const response = await api.get(next, token).expect(200);
      ids.push(...(response.body as Array<{ id: number }>).map((summary) => summary.id));
      totals.push(response.headers['x-total-count']);
      pages += 1;
      if (pages > 100) throw new Error('the walk does not end');
      const following = linkOf(response.headers.link as string | undefined, 'next');
      if (following !== undefined) expect(following).toContain('cursor=');
      next = following;
      await between();
    }
    return { ids, pages, totals };
  };

  const total = async (query: string, token: string): Promise<number> => {
    const response = await api.get(`/rest/asset-search?${query}`, token).expect(200);
    return Number(response.headers['x-total-count']);
  };

  beforeAll(async () => {
    t = await TestApp.start();
    w = await SearchWorld.create(t);
    partial = w.viewer; // view on level A (and so A1), not on B
    const levels = [[w.levelA], [w.levelA1], [w.levelB], [w.levelA, w.levelB]];
    const categories = [[w.categoryP], [w.categoryC], [], [w.categoryP, w.categoryC]];
    for (let i = 0; i < 22; i++) {
      created.push(
        await createAsset({
          levels: i % 7 === 3 ? [w.levelA] : levels[i % levels.length],
          // Some await approval: the partial viewer must not count them, the uploader counts their own.
          token: i % 7 === 3 ? w.uploader.token : undefined,
          values: [
            [
              ATTRIBUTE.title,
              `Bridge number ${String.fromCharCode(97 + ((i * 7) % 26))} ${i % 3 === 0 ? 'river' : 'road'}`,
            ],
            [w.colour, i % 3 === 0 ? 'Red' : i % 3 === 1 ? 'Blue' : ''],
            ...(i % 4 === 0 ? [] : ([[w.rank, String((i * 37) % 11)]] as Array<[number, string]>)),
          ].filter(([, value]) => value !== '') as Array<[number, string]>,
          categories: categories[i % categories.length],
        }),
      );
    }
  });

  afterAll(async () => {
    await t?.close();
  });

  describe('cursors', () => {
    const orders: Array<[string, string]> = [
      ['id', ''],
      ['id descending', 'sortDescending=true'],
      ['a number (some assets have none)', ''],
      ['a number, descending', 'sortDescending=true'],
      ['a text', `sortAttributeId=${ATTRIBUTE.title}`],
      ['the date added, descending', `sortAttributeId=${ATTRIBUTE.dateAdded}&sortDescending=true`],
      ['the uploader', `sortAttributeId=${ATTRIBUTE.addedBy}`],
    ];

    it.each(orders)(
      'walks the whole result by rel="next" in %s order, as one page lists it',
      async (name, order) => {
        const sort = name.startsWith('a number') ? `sortAttributeId=${w.rank}&${order}` : order;
        for (const token of [t.adminToken, partial.token]) {
          const expected = await all(`keywords=bridge&${sort}`, token);
          expect(expected.length).toBeGreaterThan(3);
          const { ids, pages, totals } = await walk(`keywords=bridge&${sort}&pageSize=4`, undefined, token);
          expect(ids).toEqual(expected);
          expect(pages).toBe(Math.ceil(expected.length / 4));
          // Every page by cursor counts the whole result, not what follows the cursor.
          expect(totals).toEqual(Array.from({ length: pages }, () => String(expected.length)));
          // Without the count (on MySQL a numeric sort then walks a bounded stretch of its sort index).
          const uncounted = await walk(`keywords=bridge&${sort}&pageSize=3&count=false`, undefined, token);
          expect(uncounted.ids).toEqual(expected);
        }
      },
    );

    it('walks the whole library by rel="next" by date added and by date modified, in that order', async () => {
      // No condition but visibility: SQLite walks the time index itself (sqliteWalk), MariaDB its own plan.
      const added = `sortAttributeId=${ATTRIBUTE.dateAdded}&sortDescending=true`;
      const modified = `sortAttributeId=${ATTRIBUTE.dateLastModified}`;
      for (const token of [t.adminToken, partial.token]) {
        const everything = await all('', token);
        for (const sort of [added, modified]) {
          const expected = await all(sort, token);
          expect([...expected].sort((a, b) => a - b)).toEqual(everything);
          const { ids } = await walk(`${sort}&pageSize=4`, undefined, token);
          expect(ids).toEqual(expected);
        }
        const times = (
          await api.get(`/rest/asset-search?${modified}&pageSize=1000`, token).expect(200)
        ).body.map((summary: { dateLastModifiedTimestamp: number }) => summary.dateLastModifiedTimestamp);
        expect(times).toEqual([...times].sort((a: number, b: number) => a - b));
      }
    });

    it('a walk stays whole while assets are added: no duplicates, no gaps', async () => {
      // Newest first: every asset added during the walk sorts before the position reached, which is what
      // shifts OFFSET pages (each one would repeat the last row of the previous page).
      const before = await all('sortDescending=true');
      const added: number[] = [];
      const { ids } = await walk('sortDescending=true&pageSize=3', async () => {
        added.push(
          await createAsset({ levels: [w.levelA], values: [[ATTRIBUTE.title, `added ${extra++}`]] }),
        );
      });
      expect(added.length).toBeGreaterThan(3);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(before);
      // The same walk by page numbers repeats rows: the reason for the cursor.
      const byPage: number[] = [];
      for (let page = 0; page * 3 < before.length; page++) {
        const response = await api
          .get(`/rest/asset-search?sortDescending=true&pageSize=3&page=${page}`, t.adminToken)
          .expect(200);
        byPage.push(...(response.body as Array<{ id: number }>).map((summary) => summary.id));
        added.push(
          await createAsset({ levels: [w.levelA], values: [[ATTRIBUTE.title, `added ${extra++}`]] }),
        );
      }
      expect(new Set(byPage).size).toBeLessThan(byPage.length);
    });

    it('a walk in ascending order takes in the assets added behind it, each once', async () => {
      expect(await all('keywords=walker')).toEqual([]);
      const add = () => createAsset({ levels: [w.levelA], values: [[ATTRIBUTE.title, `walker ${extra++}`]] });
      const first = [await add(), await add(), await add()];
      let added = 0;
      const { ids, pages } = await walk('keywords=walker&pageSize=2', async () => {
        // Two per page keep a page beyond the position until eight are added.
        for (let i = 0; i < 2 && added < 8; i++, added++) await add();
      });
      expect(ids.slice(0, 3)).toEqual(first);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(await all('keywords=walker'));
      expect(ids).toHaveLength(11);
      expect(pages).toBeGreaterThan(4);
    });

    it('every page links its successor by cursor, page-based pages too; the last links none', async () => {
      const first = await api
        .get('/rest/asset-search?keywords=bridge&pageSize=5&page=1', t.adminToken)
        .expect(200);
      const next = linkOf(first.headers.link as string, 'next');
      expect(next).toMatch(/cursor=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/);
      expect(next).toContain('page=2');
      expect(linkOf(first.headers.link as string, 'prev')).toContain('page=0');
      const second = await api.get(next as string, t.adminToken).expect(200);
      const byPage = await api
        .get('/rest/asset-search?keywords=bridge&pageSize=5&page=2', t.adminToken)
        .expect(200);
      expect(second.body).toEqual(byPage.body);
      expect(second.headers['x-total-count']).toBe(first.headers['x-total-count']);
      const count = Number(first.headers['x-total-count']);
      const last = await api
        .get(`/rest/asset-search?keywords=bridge&pageSize=${count}`, t.adminToken)
        .expect(200);
      expect(linkOf(last.headers.link as string, 'next')).toBeUndefined();
      expect(linkOf(last.headers.link as string, 'last')).toContain('page=0');
    });

    it('count=false leaves out the total and rel="last", and still links the next page', async () => {
      const response = await api
        .get('/rest/asset-search?keywords=bridge&pageSize=5&count=false', t.adminToken)
        .expect(200);
      expect(response.headers['x-total-count']).toBeUndefined();
      expect(linkOf(response.headers.link as string, 'last')).toBeUndefined();
      const next = linkOf(response.headers.link as string, 'next') as string;
      expect(next).toContain('count=false');
      const following = await api.get(next, t.adminToken).expect(200);
      expect(following.headers['x-total-count']).toBeUndefined();
      expect([...response.body, ...following.body].map((summary: { id: number }) => summary.id)).toEqual(
        (await all('keywords=bridge')).slice(0, 10),
      );
    });

    it('refuses a cursor that is not one, was altered, or belongs to another search (400, text/plain)', async () => {
      const response = await api
        .get('/rest/asset-search?keywords=bridge&pageSize=2', t.adminToken)
        .expect(200);
      const next = linkOf(response.headers.link as string, 'next') as string;
      const cursor = new URL(next, t.baseUrl).searchParams.get('cursor') as string;
      const [payload, signature] = cursor.split('.');
      const forged = Buffer.from(JSON.stringify({ id: 1 }), 'utf8').toString('base64url');
      const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
      for (const query of [
        'keywords=bridge&cursor=nonsense',
        `keywords=bridge&cursor=${forged}.${signature}`,
        `keywords=bridge&cursor=${payload}.${flipped}`,
        `keywords=road&cursor=${cursor}`,
        `keywords=bridge&sortDescending=true&cursor=${cursor}`,
      ]) {
        const refused = await api.get(`/rest/asset-search?${query}`, t.adminToken).expect(400);
        expect(refused.headers['content-type']).toMatch(/^text\/plain/);
        expect(refused.text).toMatch(/^cursor is not a cursor of this search/);
      }
      // The same search with another page size or count still takes it.
      await api
        .get(`/rest/asset-search?keywords=bridge&pageSize=7&count=false&cursor=${cursor}`, t.adminToken)
        .expect(200);
    });
  });

  describe('facets', () => {
    const FACETS = () => `categories,accessLevels,type,attribute_${w.colour},dateAdded:year`;

    /** The filter that selects one facet value, to compare its count with X-Total-Count. */
    const narrowing = (facet: string, value: number | string): string | undefined => {
      if (facet === 'categories') return `descriptiveCategoryForm.categoryIds=${value}`;
      if (facet === 'accessLevels') return `permissionCategoryForm.categoryIds=${value}`;
      if (facet === `attribute_${w.colour}`)
        return `attribute_${w.colour}=${encodeURIComponent(String(value))}`;
      if (facet === 'dateAdded:year') return `dateAddedLower=${value}-01-01&dateAddedUpper=${value}-12-31`;
      return typeof value === 'number' ? `assetTypeId=${value}` : undefined;
    };

    /** The facets of `query` as `token` sees them: each value counts exactly what narrowing to it finds. */
    async function expectExactFacets(query: string, token: string): Promise<void> {
      const response = await api.get(`/rest/asset-search?${query}&facets=${FACETS()}`, token).expect(200);
      const body = response.body as Envelope;
      expect(body.total).toBe(Number(response.headers['x-total-count']));
      expect(body.results.map((summary) => summary.id)).toEqual(await all(query, token));
      expect(Object.keys(body.facets)).toEqual([
        'categories',
        'accessLevels',
        'type',
        `attribute_${w.colour}`,
        'dateAdded:year',
      ]);
      // Each asset has one year and one type: those facets add up to the total.
      const sum = (name: string) => body.facets[name].reduce((n, value) => n + value.count, 0);
      expect(sum('dateAdded:year')).toBe(body.total);
      expect(sum('type')).toBe(body.total);
      for (const [facet, values] of Object.entries(body.facets)) {
        for (const value of values) {
          expect(value.count).toBeGreaterThan(0);
          const filter = narrowing(facet, value.value);
          if (filter === undefined) continue;
          expect([facet, value.value, await total(`${query}&${filter}`, token)]).toEqual([
            facet,
            value.value,
            value.count,
          ]);
        }
        const counts = values.map((value) => value.count);
        expect(counts).toEqual([...counts].sort((x, y) => y - x));
      }
      expect(body.facets.categories.map((value) => value.url)).toEqual(
        body.facets.categories.map((value) => t.rest(`categories/${value.value}`)),
      );
      expect(body.facets.accessLevels.map((value) => value.url)).toEqual(
        body.facets.accessLevels.map((value) => t.rest(`access-levels/${value.value}`)),
      );
    }

    it.each([
      ['a full viewer', () => t.adminToken],
      ['a viewer of some levels', () => partial.token],
      ['an uploader whose own uploads await approval', () => w.uploader.token],
    ])('count, for %s, exactly the assets the same search with that value answers', async (_, token) => {
      for (const query of ['keywords=bridge', 'keywords=river', '']) await expectExactFacets(query, token());
    });

    it('leave out what the caller may not see', async () => {
      const body = (await api.get(`/rest/asset-search?facets=accessLevels`, partial.token).expect(200))
        .body as Envelope;
      const levels = body.facets.accessLevels.map((value) => value.value);
      expect(levels).toContain(w.levelA);
      expect(levels).toContain(w.levelA1);
      // Assets in A and B are visible through A, and so counted under B as well; B alone is not.
      const onlyB = await all(`permissionCategoryForm.categoryIds=${w.levelB}`, partial.token);
      expect(body.facets.accessLevels.find((value) => value.value === w.levelB)?.count ?? 0).toBe(
        onlyB.length,
      );
      expect(body.total).toBeLessThan(
        Number((await api.get('/rest/asset-search', t.adminToken)).headers['x-total-count']),
      );
    });

    it('label the values and keep the top facetLimit of each, most frequent first', async () => {
      const full = (
        await api.get(`/rest/asset-search?keywords=bridge&facets=${FACETS()}`, t.adminToken).expect(200)
      ).body as Envelope;
      expect(full.facets.categories.find((value) => value.value === w.categoryP)?.label).toBe(
        'Parent category',
      );
      expect(full.facets[`attribute_${w.colour}`].map((value) => value.label).sort()).toEqual([
        'Blue',
        'Red',
      ]);
      expect(full.facets['dateAdded:year'][0]).toEqual({
        value: new Date().getUTCFullYear(),
        label: String(new Date().getUTCFullYear()),
        count: full.total,
      });
      const top = (
        await api
          .get(`/rest/asset-search?keywords=bridge&facets=${FACETS()}&facetLimit=1`, t.adminToken)
          .expect(200)
      ).body as Envelope;
      for (const [name, values] of Object.entries(top.facets)) {
        expect(values).toEqual(full.facets[name].slice(0, 1));
      }
      const counted = (
        await api
          .get(`/rest/asset-search?keywords=bridge&facets=categories&count=false&pageSize=2`, t.adminToken)
          .expect(200)
      ).body as Envelope;
      expect(counted.total).toBeUndefined();
      expect(counted.results).toHaveLength(2);
      expect(counted.facets.categories).toEqual(full.facets.categories);
    });

    it('leave the plain array answer exactly as it was when not asked for', async () => {
      const plain = await api.get('/rest/asset-search?keywords=bridge&pageSize=5', t.adminToken).expect(200);
      expect(Array.isArray(plain.body)).toBe(true);
      expect(Object.keys(plain.body[0]).sort()).toEqual(
        [
          'id',
          'originalFilename',
          'fullAssetUrl',
          'thumbnailUrl',
          'previewUrl',
          'unwatermarkedLargeImageUrl',
          'dateLastModifiedTimestamp',
          'approved',
          'typeId',
          'typeName',
          'accessLevelIds',
          'displayAttributes',
          'attributes',
        ].sort(),
      );
      const enveloped = await api
        .get('/rest/asset-search?keywords=bridge&pageSize=5&facets=type', t.adminToken)
        .expect(200);
      expect(enveloped.body.results).toEqual(plain.body);
      expect(enveloped.headers['x-total-count']).toBe(plain.headers['x-total-count']);
      const xml = await api
        .get('/rest/asset-search?keywords=bridge&pageSize=5', t.adminToken)
        .set('Accept', 'application/xml')
        .expect(200);
      const document = parseXml(xml.text);
      expect(nodes(document, '/assetSummaries/assetSummary')).toHaveLength(5);
    });

    it('answer the envelope in XML: results, total, and each facet with its name and values', async () => {
      const json = (
        await api.get(`/rest/asset-search?keywords=bridge&facets=${FACETS()}`, t.adminToken).expect(200)
      ).body as Envelope;
      const response = await api
        .get(`/rest/asset-search?keywords=bridge&facets=${FACETS()}`, t.adminToken)
        .set('Accept', 'application/xml')
        .expect(200);
      expect(response.headers['content-type']).toMatch(/^application\/xml/);
      const document = parseXml(response.text);
      expect(texts(document, '/assetSearch/results/assetSummary/id').map(Number)).toEqual(
        json.results.map((summary) => summary.id),
      );
      expect(texts(document, '/assetSearch/total')).toEqual([String(json.total)]);
      expect(texts(document, '/assetSearch/facets/facet/name')).toEqual(Object.keys(json.facets));
      const years = nodes(document, '/assetSearch/facets/facet[name="dateAdded:year"]/values/facetValue');
      expect(years).toHaveLength(json.facets['dateAdded:year'].length);
      expect(texts(document, '/assetSearch/facets/facet[name="categories"]/values/facetValue/url')).toEqual(
        json.facets.categories.map((value) => value.url),
      );
    });

    it('refuse unknown facets and bad limits (400, text/plain)', async () => {
      for (const [query, message] of [
        ['facets=colour', /^facets: "colour" is not a facet/],
        ['facets=attribute_99999', /^facets: attribute_99999 names no attribute/],
        [`facets=attribute_${ATTRIBUTE.categories}`, /is not a facet; use categories/],
        ['facets=type&facetLimit=0', /^facetLimit must be a whole number from 1 to 1000/],
        ['facets=type&count=maybe', /count/],
      ] as const) {
        const refused = await api.get(`/rest/asset-search?${query}`, t.adminToken).expect(400);
        expect(refused.headers['content-type']).toMatch(/^text\/plain/);
        expect(refused.text).toMatch(message);
      }
    });

    // Last: it changes the library. The whole library's facets come from tallies kept by every write.
    it('keep counting the whole library exactly through writes of categories, levels, states and deletions', async () => {
      const accessLevelsAttribute = '9';
      const put = (id: number, attributes: Array<{ id: string; value: string }>) =>
        api.put(`/rest/assets/${id}`, t.adminToken, { attributes }).expect(200);
      await put(created[0], [{ id: String(ATTRIBUTE.categories), value: String(w.categoryC) }]);
      await put(created[1], [{ id: accessLevelsAttribute, value: String(w.levelB) }]);
      await put(created[4], [
        { id: accessLevelsAttribute, value: `${w.levelA},${w.levelB}` },
        { id: String(ATTRIBUTE.categories), value: '' },
      ]);
      await api.delete(`/rest/assets/${created[2]}`, t.adminToken).expect(204);
      await api.post(`/rest/assets/${created[3]}/approve`, t.adminToken, {}).expect(200);
      // A category that gets an asset, loses it, and is deleted: it leaves no count behind (its set of
      // categories with P outlives it, without it).
      const passing = await insertCategory(t, 'Passing category');
      const moved = await createAsset({ levels: [w.levelA1], categories: [passing, w.categoryP] });
      await put(moved, [{ id: String(ATTRIBUTE.categories), value: String(w.categoryP) }]);
      await api.delete(`/rest/categories/${passing}`, t.adminToken).expect(204);
      // A new upload of the uploader that awaits approval: theirs to count, not the viewer's.
      await createAsset({ levels: [w.levelA], token: w.uploader.token, categories: [w.categoryC] });
      for (const token of [t.adminToken, partial.token, w.uploader.token]) {
        // The whole library (from the tallies) and filtered searches (grouping their matches; a category
        // filter would not do: narrowing it to a category widens it, the categories being ORed).
        for (const query of ['', 'keywords=bridge', 'keywords=river']) await expectExactFacets(query, token);
        const body = (await api.get(`/rest/asset-search?facets=categories`, token).expect(200))
          .body as Envelope;
        expect(body.facets.categories.map((value) => value.value)).not.toContain(passing);
      }
    });
  });
});
