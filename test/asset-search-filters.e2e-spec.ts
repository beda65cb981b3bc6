import fc from 'fast-check';
import { bearerRequests, itRefusesRequestsWithoutAToken } from './helpers/bearer-requests';
import { searchSampleSuite } from './helpers/asset-search-sample';
import { ATTRIBUTE, SearchWorld, searcher } from './helpers/search-fixtures';
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
});
