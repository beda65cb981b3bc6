import { pagingSampleSuite } from './helpers/asset-search-sample';
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

describe('GET /rest/asset-search: cursors (keyset pages), count=false and facets', () => {
  let t: TestApp;
  let w: SearchWorld;
  let partial: TestUser;
  const api = bearerRequests(() => t);
  const createAsset = assetFactory(() => t);
  const created: number[] = [];

  /** Every id of a search on one page. */
  const all = async (query: string, token = t.adminToken): Promise<number[]> => {
    const response = await api.get(`/rest/asset-search?${query}&pageSize=1000`, token).expect(200);
    return (response.body as Array<{ id: number }>).map((summary) => summary.id);
  };

  const total = async (query: string, token: string): Promise<number> => {
    const response = await api.get(`/rest/asset-search?${query}`, token).expect(200);
    return Number(response.headers['x-total-count']);
  };

  const suite = pagingSampleSuite();
  beforeAll(() => {
    ({ t, w } = suite);
    partial = w.viewer; // view on level A (and so A1), not on B
    created.push(...suite.sample);
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
          'contentSha256',
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
