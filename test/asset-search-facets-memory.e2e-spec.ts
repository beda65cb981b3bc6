import { accessLevelRequests, Created } from './helpers/access-level-requests';
import { bearerRequests } from './helpers/bearer-requests';
import { insertAssets } from './helpers/fixtures';
import { TestApp, TestUser } from './helpers/test-app';

interface FacetValue {
  value: number | string;
  count: number;
}

/**
 * On MySQL, a facets search copies its matches into an in-memory table of at most
 * DAM_SEARCH_FACETS_MEMORY_KB; with more matches than that holds (600 rows against 16 KiB here), the
 * table is built on disk instead and the answer is the same. On SQLite (no such table) the same counts.
 */
describe('GET /rest/asset-search?facets=...: more matches than the in-memory table of matches holds', () => {
  let t: TestApp;
  let viewer: TestUser;
  let wide: Created;
  let narrow: Created;
  const app = () => t;
  const http = bearerRequests(app);
  const levels = accessLevelRequests(app);

  beforeAll(async () => {
    t = await TestApp.start({ env: { DAM_SEARCH_FACETS_MEMORY_KB: '16' } });
    viewer = await t.createUser();
    wide = await levels.createLevel('Wide');
    narrow = await levels.createLevel('Narrow');
    await levels.joinGroups(viewer, [await levels.createGroup('Narrow viewers', { [narrow.url]: ['view'] })]);
    await insertAssets(t, [
      ...Array.from({ length: 400 }, () => ({ accessLevelIds: [wide.id] })),
      ...Array.from({ length: 200 }, () => ({ accessLevelIds: [wide.id, narrow.id] })),
    ]);
  });

  afterAll(async () => {
    await t?.close();
  });

  const facetsOf = async (query: string, token: string) => {
    const response = await http
      .get(`/rest/asset-search?${query}&facets=accessLevels,type,dateAdded:year&pageSize=1`, token)
      .expect(200);
    const body = response.body as { total: number; facets: Record<string, FacetValue[]> };
    const counts = (name: string) => body.facets[name].map(({ value, count }) => [String(value), count]);
    return {
      total: body.total,
      levels: counts('accessLevels'),
      type: counts('type'),
      years: counts('dateAdded:year'),
    };
  };

  it('counts every match, as the admin sees them', async () => {
    const year = String(new Date().getUTCFullYear());
    expect(await facetsOf(`permissionCategoryForm.categoryIds=${wide.id}`, t.adminToken)).toEqual({
      total: 600,
      levels: [
        [String(wide.id), 600],
        [String(narrow.id), 200],
      ],
      type: [[expect.any(String), 600]],
      years: [[year, 600]],
    });
  });

  it('counts only what a viewer of one level sees', async () => {
    const answer = await facetsOf(`permissionCategoryForm.categoryIds=${wide.id}`, viewer.token);
    expect(answer.total).toBe(200);
    expect(answer.levels).toEqual([
      [String(wide.id), 200],
      [String(narrow.id), 200],
    ]);
  });
});
