import { pagingSampleSuite } from './helpers/asset-search-sample';
import { bearerRequests } from './helpers/bearer-requests';
import { assetFactory, ATTRIBUTE, SearchWorld } from './helpers/search-fixtures';
import { TestApp, TestUser } from './helpers/test-app';

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

  const suite = pagingSampleSuite();
  beforeAll(() => {
    ({ t, w } = suite);
    partial = w.viewer; // view on level A (and so A1), not on B
    created.push(...suite.sample);
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
});
