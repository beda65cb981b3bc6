import { bearerRequests } from './helpers/bearer-requests';
import { Grants } from './helpers/grant-fixtures';
import { TestApp, TestUser } from './helpers/test-app';

/**
 * Issue 36, point 7: `permissionCategoryForm.categoryIds` naming an access level the caller may not view
 * answers the same 400 as an id that names no level (before: `200 []`, which told hidden ids apart).
 */
describe('hidden ids answer as nonexistent ones', () => {
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
  });

  afterAll(async () => {
    await t?.close();
  });

  const search = (query: string, token = viewer.token) => get(`/rest/asset-search?${query}`, token);

  it('answers a hidden level and a missing one alike: 400, the same message', async () => {
    const missing = hidden + 1000;
    const [forHidden, forMissing] = [await search(`${p}=${hidden}`), await search(`${p}=${missing}`)];
    expect([forHidden.status, forMissing.status]).toEqual([400, 400]);
    expect(forHidden.text).toBe(`${p} ${hidden} names no access level`);
    expect(forMissing.text).toBe(`${p} ${missing} names no access level`);
    expect(forHidden.headers['content-type']).toBe(forMissing.headers['content-type']);
  });

  it('still searches a level the caller may view, and any level for the admin', async () => {
    await search(`${p}=${shown}`).expect(200);
    await search(`${p}=${hidden}`, t.adminToken).expect(200);
  });
});
