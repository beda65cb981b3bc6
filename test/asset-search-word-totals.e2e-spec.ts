import { bearerRequests } from './helpers/bearer-requests';
import { contentRequests, png } from './helpers/content-fixtures';
import { assetFactory, ATTRIBUTE, pageWalker, SearchWorld } from './helpers/search-fixtures';
import { TestApp } from './helpers/test-app';

/**
 * The total of a search for one word comes from the word tallies (assets per word, set of levels, state
 * and attributes holding the word, kept in the transaction of each write). Here it must equal, for a
 * viewer of every level (admin), of some levels (viewer, other) and an uploader with hidden uploads of
 * their own, and after every kind of write, the number of assets a brute force finds (the word OR a word
 * no asset has, which no word path answers; `count=false` pages count nothing); the word's pages must list
 * those assets, and its category, access level, year and type facets (from the word facet tallies) must
 * equal the brute force's GROUP BY, also when an asset's type comes from its asset type or from a new file.
 */
describe('GET /rest/asset-search: the total of a common word, counted from the word tallies', () => {
  let t: TestApp;
  let w: SearchWorld;
  const api = bearerRequests(() => t);
  const createAsset = assetFactory(() => t);
  const walk = pageWalker(() => t);
  const content = contentRequests(() => t);
  const ids: Record<string, number> = {};
  const WORDS = ['logo', 'brand', 'red', 'fresh'];
  // Each check walks every page of each word for four searchers: minutes on a loaded machine.
  jest.setTimeout(300_000);

  /** For each word and searcher: its pages, X-Total-Count, the facets and their total, against a brute force. */
  async function expectWordTotalsExact(): Promise<void> {
    for (const user of [undefined, w.viewer, w.other, w.uploader]) {
      const token = user?.token ?? t.adminToken;
      for (const word of WORDS) {
        for (const query of [`keywords=${word}`, `keywords=${word}&unsubmitted=true`]) {
          // Brute force: the word OR a word no asset has, which no word path answers (no tallies, no walk
          // of the word's token rows); the word's own pages must list the same assets.
          const brute = await idsOf(
            query.replace(`keywords=${word}`, `keywords=${word}+OR+zzqqnone`),
            token,
            100,
          );
          const walked = brute.length;
          await expectSamePages(query, token, brute);
          const who = user?.username ?? 'admin';
          // The categories, access levels, years and types from the word's facet tallies, against the GROUP BY
          // over the brute force's matches (the word OR a word no asset has); the access levels alone too.
          const facets = 'categories,accessLevels,dateAdded:year,type';
          const [tallied, grouped, levelsAlone] = await Promise.all(
            [
              `${query}&facets=${facets}`,
              `${query.replace(`keywords=${word}`, `keywords=${word}+OR+zzqqnone`)}&facets=${facets}`,
              `${query}&facets=accessLevels`,
            ].map(async (q) => (await api.get(`/rest/asset-search?${q}`, token).expect(200)).body),
          );
          expect({ who, query, facets: tallied.facets, total: tallied.total }).toEqual({
            who,
            query,
            facets: grouped.facets,
            total: walked,
          });
          expect({ who, query, facets: levelsAlone.facets, total: levelsAlone.total }).toEqual({
            who,
            query,
            facets: { accessLevels: grouped.facets.accessLevels },
            total: walked,
          });
        }
      }
    }
  }

  /** Every id a search lists, through every page by `rel="next"` (pages of 2 by default, no count). */
  async function idsOf(query: string, token: string, pageSize = 2): Promise<number[]> {
    const ids: number[] = [];
    let next: string | undefined = `/rest/asset-search?${query}&count=false&pageSize=${pageSize}`;
    while (next !== undefined) {
      const page: { headers: Record<string, unknown>; body: unknown } = await api
        .get(next.replace(/^https?:\/\/[^/]+/, ''), token)
        .expect(200);
      ids.push(...(page.body as Array<{ id: number }>).map((item) => item.id));
      next = /<([^>]+)>;\s*rel="next"/.exec(String(page.headers.link ?? ''))?.[1];
    }
    return ids;
  }

  /**
   * The word's pages (its token rows walked in id order, either direction; sorted by title) list exactly
   * the brute-force matches (`brute`, in id order), and the first page's total is their number.
   */
  async function expectSamePages(query: string, token: string, brute: number[]): Promise<void> {
    expect({ query, ids: await idsOf(query, token) }).toEqual({ query, ids: brute });
    const descending = await idsOf(`${query}&sortDescending=true`, token);
    expect({ query, ids: descending }).toEqual({ query, ids: [...brute].reverse() });
    const byTitle = await idsOf(`${query}&sortAttributeId=${ATTRIBUTE.title}`, token);
    expect({ query, ids: [...byTitle].sort((a, b) => a - b) }).toEqual({ query, ids: brute });
    const first = await api.get(`/rest/asset-search?${query}&pageSize=1`, token).expect(200);
    expect({ query, total: Number(first.headers['x-total-count']) }).toEqual({ query, total: brute.length });
  }

  beforeAll(async () => {
    t = await TestApp.start();
    w = await SearchWorld.create(t);
    const { title, description, keywords } = ATTRIBUTE;
    ids.live = await createAsset({
      levels: [w.levelA],
      categories: [w.categoryP],
      values: [
        [title, 'Logo red'],
        [keywords, 'logo, brand'],
      ],
    });
    ids.twoLevels = await createAsset({
      levels: [w.levelA, w.levelB],
      categories: [w.categoryP, w.categoryC],
      values: [
        [description, 'the brand logo'],
        [w.notes, 'fresh'],
      ],
    });
    ids.pending = await createAsset({
      levels: [w.levelA],
      categories: [w.categoryC],
      token: w.uploader.token,
      values: [[title, 'Fresh logo']],
    });
    ids.draft = await createAsset({
      levels: [w.levelA],
      token: w.uploader.token,
      submit: false,
      values: [[title, 'Draft logo brand']],
    });
    // An asset type given at creation (the type facet counts it by its id, not by its content's type).
    const typed = await api
      .post('/rest/assets', t.adminToken, {
        accessLevels: [{ id: w.levelB }],
        assetTypeUrl: `${t.baseUrl}/rest/asset-types/2`,
      })
      .expect(201);
    ids.typed = typed.body.id as number;
    await api
      .put(`/rest/assets/${ids.typed}`, t.adminToken, {
        attributes: [{ id: String(title), value: 'Typed logo' }],
      })
      .expect(200);
    // "red" in a list attribute (not keyword-searchable) only: no keyword match.
    ids.colour = await createAsset({ levels: [w.levelB], values: [[w.colour, 'Red']] });
    ids.elsewhere = await createAsset({
      levels: [w.levelB],
      values: [
        [title, 'Red brand'],
        [w.colour, 'Red'],
      ],
    });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('equals what each searcher finds, for words in one attribute and in several, in every state', async () => {
    await expectWordTotalsExact();
    // The model: admin finds "logo" in the four submitted assets with it, the viewer (view on A) in the
    // two live ones on A, the uploader in those and their own upload awaiting approval.
    expect(await walk('keywords=logo', t.adminToken)).toBe(4);
    expect(await walk('keywords=logo', w.viewer.token)).toBe(2);
    expect(await walk('keywords=logo', w.uploader.token)).toBe(3);
    expect(await walk('keywords=red', t.adminToken)).toBe(2);
  });

  it('stays exact when keywords, levels, categories and the approval state change', async () => {
    const put = (id: number, body: object, token = t.adminToken) =>
      api.put(`/rest/assets/${id}`, token, body).expect(200);
    await put(ids.live, { attributes: [{ id: String(ATTRIBUTE.keywords), value: 'fresh' }] });
    await put(ids.elsewhere, { accessLevels: [{ id: w.levelA }, { id: w.levelB }] });
    // Categories change: into two, out of one, out of all.
    const categories = (id: number, value: string) =>
      put(id, { attributes: [{ id: String(ATTRIBUTE.categories), value }] });
    await categories(ids.elsewhere, `${w.categoryP},${w.categoryC}`);
    await categories(ids.twoLevels, String(w.categoryC));
    await categories(ids.live, '');
    await expectWordTotalsExact();
    await put(ids.draft, { submitted: true }, w.uploader.token);
    await api.post(`/rest/assets/${ids.pending}/approve`, w.approver.token, {}).expect(200);
    await put(ids.twoLevels, { attributes: [{ id: String(ATTRIBUTE.description), value: 'red red' }] });
    await expectWordTotalsExact();
    // New files change the type from the content: File to Image, and the typed asset keeps its type.
    for (const id of [ids.live, ids.typed]) {
      await content.upload(`/rest/assets/${id}`, t.adminToken, await png(4, 4), 'logo.png').expect(200);
    }
    const types = async () =>
      (await api.get('/rest/asset-search?keywords=logo&facets=type', t.adminToken).expect(200)).body.facets
        .type as Array<{ value: number | string; count: number }>;
    // "logo": the two uploads of the uploader (File, asset type 1), and the new PNG and the typed asset
    // (Image, asset type 2).
    expect((await types()).map(({ value, count }) => [value, count])).toEqual([
      [1, 2],
      [2, 2],
    ]);
    await expectWordTotalsExact();
  });

  it('stays exact when assets are archived, trashed and restored, and when a word becomes searchable', async () => {
    await api.put(`/rest/assets/${ids.live}`, t.adminToken, { archived: true }).expect(200);
    await api.delete(`/rest/assets/${ids.twoLevels}`, t.adminToken).expect(204);
    await api.delete(`/rest/assets/${ids.pending}`, t.adminToken).expect(204);
    await expectWordTotalsExact();
    // Trashed assets do not count: "fresh" was in the trashed pending upload's title only, besides `live`.
    expect(await walk('keywords=fresh', t.adminToken)).toBe(1);
    const trash = (await api.get('/rest/admin/trash', t.adminToken).expect(200)).body as Array<{
      id: number;
      asset: string;
    }>;
    const item = trash.find((entry) => entry.asset.endsWith(`/rest/assets/${ids.twoLevels}`));
    await api.post(`/rest/admin/trash/${item?.id}/restore`, t.adminToken, {}).expect(200);
    await expectWordTotalsExact();
    // The colour list becomes keyword-searchable: "red" of both colour values now matches.
    await api.put(`/rest/attributes/${w.colour}`, t.adminToken, { isKeywordSearchable: true }).expect(200);
    await expectWordTotalsExact();
    expect(await walk('keywords=red', t.adminToken)).toBe(4);
  });
});
