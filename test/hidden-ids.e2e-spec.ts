import { bearerRequests } from './helpers/bearer-requests';
import { insertAssets } from './helpers/fixtures';
import { Grants } from './helpers/grant-fixtures';
import { TestApp, TestUser } from './helpers/test-app';

/**
 * Issue 36, point 7: `permissionCategoryForm.categoryIds` told hidden ids apart: a level the caller may
 * not view answered `200 []`, an id naming no level 400. A caller who sees only some levels now gets the
 * same answer for both: what they see of it, nothing (facets list the hidden levels of what a caller
 * sees, and filtering by them stays exact, so the hidden one cannot be the 400). Whoever sees every
 * level still gets the 400 for an id that names none.
 */
describe('hidden and nonexistent access level ids answer alike', () => {
  let t: TestApp;
  let viewer: TestUser;
  let shown: number;
  let hidden: number;
  const { get } = bearerRequests(() => t);
  const p = 'permissionCategoryForm.categoryIds';

  beforeAll(async () => {
    t = await TestApp.start();
    const grants = new Grants(t);
    [shown, hidden] = [await grants.topLevel('Shown'), await grants.topLevel('Hidden')];
    viewer = await t.createUser();
    await grants.give(viewer.id, [shown], ['view']);
    await insertAssets(t, [{ accessLevelIds: [shown] }, { accessLevelIds: [hidden] }]);
  });

  afterAll(async () => {
    await t?.close();
  });

  const search = (query: string, token = viewer.token) => get(`/rest/asset-search?${query}`, token);

  it('answers a hidden level and a missing one alike for a viewer of some levels', async () => {
    const missing = hidden + 1000;
    for (const query of [
      `${p}=${hidden}`,
      `${p}=${missing}`,
      `${p}=${missing}&includeImplicitCategoryMembers=true`,
    ]) {
      const answer = await search(query);
      expect([query, answer.status, answer.body, answer.headers['x-total-count']]).toEqual([
        query,
        200,
        [],
        '0',
      ]);
    }
  });

  it('still finds what the viewer sees, and refuses a missing id to the admin, who sees every level', async () => {
    expect((await search(`${p}=${shown}`).expect(200)).body).toHaveLength(1);
    expect((await search(`${p}=${hidden}`, t.adminToken).expect(200)).body).toHaveLength(1);
    const refused = await search(`${p}=${hidden + 1000}`, t.adminToken).expect(400);
    expect(refused.text).toBe(`${p} ${hidden + 1000} names no access level`);
  });
});
