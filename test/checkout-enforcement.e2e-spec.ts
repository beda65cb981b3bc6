import { CHECKED_OUT_TO_ANOTHER_USER } from '@dam/checkout';
import { bearerRequests } from './helpers/bearer-requests';
import { Grants } from './helpers/grant-fixtures';
import { TestApp, TestUser } from './helpers/test-app';

/** While an asset is checked out, other non-admin users cannot edit or delete it (409). */
describe('checkout enforcement on asset writes', () => {
  let t: TestApp;
  let holder: TestUser;
  let other: TestUser;
  let defaultLevel: number;
  const { get, post, put, delete: del } = bearerRequests(() => t);

  beforeAll(async () => {
    t = await TestApp.start();
    const grants = new Grants(t);
    [holder, other] = await Promise.all([t.createUser(), t.createUser()]);
    defaultLevel = await grants.topLevel('Default');
    for (const user of [holder, other])
      await grants.give(user.id, [defaultLevel], ['view', 'edit', 'delete']);
  });
  afterAll(() => t?.close());

  async function newAsset(): Promise<string> {
    const created = await post('/rest/assets', t.adminToken, { accessLevels: [{ id: defaultLevel }] }).expect(
      201,
    );
    return new URL(created.headers.location as string).pathname;
  }

  async function retitle(path: string, token: string, title: string) {
    const current = await get(path, token).expect(200);
    const attributes = (current.body.attributes as Array<{ id: string; name: string; value: string }>).map(
      (attribute) => (attribute.id === '1' ? { ...attribute, value: title } : attribute),
    );
    return put(path, token, { ...current.body, attributes });
  }

  it('refuses edits and deletion by others with 409 while checked out, and allows them after check-in', async () => {
    const asset = await newAsset();
    await put(`${asset}/checkout`, holder.token, {}).expect(200, { userId: String(holder.id) });

    const refused = await retitle(asset, other.token, 'by the other user');
    expect(refused.status).toBe(409);
    expect(refused.type).toBe('text/plain');
    expect(refused.text).toBe(CHECKED_OUT_TO_ANOTHER_USER);
    const deletion = await del(asset, other.token);
    expect(deletion.status).toBe(409);

    const unchanged = await get(asset, t.adminToken).expect(200);
    expect(unchanged.body.attributes.find((a: { id: string }) => a.id === '1').value).toBe('');

    expect((await retitle(asset, holder.token, 'by the holder')).status).toBe(200);
    expect((await retitle(asset, t.adminToken, 'by an admin')).status).toBe(200);

    await put(`${asset}/checkout`, holder.token, { userId: 0 }).expect(200, { userId: '0' });
    expect((await retitle(asset, other.token, 'after check-in')).status).toBe(200);
    await del(asset, other.token).expect(204);
  });
});
