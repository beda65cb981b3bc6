import { grant, insertAccessLevel } from './helpers/asset-permission-fixtures';
import { bearerRequests, itRefusesRequestsWithoutAToken, pathOf } from './helpers/bearer-requests';
import { TestApp, TestUser } from './helpers/test-app';

const TITLE = 1;
const ACCESS_LEVELS = 9;

interface PendingItem {
  assetInstanceUrl: string;
  assetApprovalUrl: string;
}

describe('DELETE, approval and pending approvals of assets', () => {
  let t: TestApp;
  const api = bearerRequests(() => t);
  let level: number;
  let moderated: number;
  let contributor: TestUser;
  let approver: TestUser;
  let viewer: TestUser;

  const createAsset = async (levels: number[], token = t.adminToken): Promise<string> => {
    const response = await api.post('/rest/assets', token, { accessLevels: levels.map((id) => ({ id })) });
    expect(response.status).toBe(201);
    return pathOf(response.body.url as string);
  };
  const titleOf = async (path: string, token: string): Promise<string | undefined> => {
    const body = (await api.get(path, token).expect(200)).body as {
      attributes: Array<{ id: string; value: string }>;
    };
    return body.attributes.find((attribute) => attribute.id === String(TITLE))?.value;
  };
  const setTitle = (path: string, title: string, token: string) =>
    api.put(path, token, { attributes: [{ id: String(TITLE), value: title }] });
  const pendingList = async (which: 'upload' | 'edit', token: string, query = ''): Promise<PendingItem[]> =>
    (await api.get(`/rest/pending-${which}-approvals${query}`, token).expect(200)).body as PendingItem[];

  beforeAll(async () => {
    t = await TestApp.start();
    level = await insertAccessLevel(t);
    moderated = await insertAccessLevel(t);
    contributor = await t.createUser();
    approver = await t.createUser();
    viewer = await t.createUser();
    await grant(t, contributor.id, [moderated], ['view', 'uploadWithApproval', 'editWithApproval']);
    await grant(t, contributor.id, [level], ['view', 'upload', 'editWithApproval']);
    await grant(t, approver.id, [moderated, level], ['view', 'approve']);
    await grant(t, viewer.id, [moderated, level], ['view']);
  });

  afterAll(async () => {
    await t?.close();
  });

  itRefusesRequestsWithoutAToken(
    () => t,
    [
      ['DELETE', '/rest/assets/1'],
      ['POST', '/rest/assets/1/approve'],
      ['GET', '/rest/pending-upload-approvals'],
      ['GET', '/rest/pending-edit-approvals'],
    ],
  );

  it('registers the root keys of the assets area, but not asset search', async () => {
    const links = (await api.get('/rest', t.adminToken).expect(200)).body.api_version_1_3;
    expect(links).toMatchObject({
      assetsUrl: `${t.baseUrl}/rest/assets`,
      pendingUploadApprovalsUrl: `${t.baseUrl}/rest/pending-upload-approvals`,
      pendingEditApprovalsUrl: `${t.baseUrl}/rest/pending-edit-approvals`,
    });
  });

  describe('DELETE /rest/assets/{id}', () => {
    it('needs delete permission on every level (403), then answers 204 and the asset is gone', async () => {
      const other = await insertAccessLevel(t);
      const deleter = await t.createUser();
      await grant(t, deleter.id, [level], ['view', 'delete']);
      await grant(t, deleter.id, [other], ['view']);
      const path = await createAsset([level, other]);
      const child = await createAsset([level]);
      await api.put(child, t.adminToken, { parents: [`${t.baseUrl}${path}`] }).expect(200);
      // Read (and kept by the service) before the parent goes: the child's next read must not be stale.
      expect((await api.get(child, t.adminToken).expect(200)).body.parents).toEqual([`${t.baseUrl}${path}`]);
      const refused = await api.delete(path, deleter.token);
      expect(refused.status).toBe(403);
      expect(refused.headers['content-type']).toMatch(/^text\/plain/);
      await grant(t, deleter.id, [other], ['delete']);
      await api.delete(path, deleter.token).expect(204);
      await api.get(path, t.adminToken).expect(404);
      expect((await api.get(child, t.adminToken).expect(200)).body.parents).toEqual([]);
    });

    it('is 404 for assets the actor cannot see, and acts as ?userId= for admins', async () => {
      const hidden = await createAsset([await insertAccessLevel(t)]);
      await api.delete(hidden, viewer.token).expect(404);
      await api.delete('/rest/assets/999999', t.adminToken).expect(404);
      const path = await createAsset([level]);
      await api.delete(`${path}?userId=${viewer.id}`, t.adminToken).expect(403);
      await api.delete(`${path}?userId=${viewer.id}`, viewer.token).expect(403);
      await api.delete(`${path}?userId=${approver.id}`, viewer.token).expect(403);
      await api.delete(path, t.adminToken).expect(204);
    });
  });

  describe('upload approval', () => {
    it('lists pending uploads to those who may approve them, and approval makes them visible', async () => {
      const path = await createAsset([moderated], contributor.token);
      const url = `${t.baseUrl}${path}`;
      const item = { assetInstanceUrl: url, assetApprovalUrl: `${url}/approve` };
      expect(await pendingList('upload', approver.token)).toContainEqual(item);
      expect(await pendingList('upload', t.adminToken)).toContainEqual(item);
      expect(await pendingList('upload', viewer.token)).toEqual([]);
      expect(await pendingList('upload', t.adminToken, `?userId=${viewer.id}`)).toEqual([]);
      expect(await pendingList('upload', t.adminToken, `?userId=${approver.id}`)).toContainEqual(item);
      await api.get(path, viewer.token).expect(404);
      await api.get(path, approver.token).expect(200);

      const refused = await api.post(`${path}/approve`, contributor.token, {});
      expect(refused.status).toBe(403);
      const approved = await api.post(`${path}/approve`, approver.token, {}).expect(200);
      expect(approved.text).toBe('');
      expect((await api.get(path, viewer.token).expect(200)).body.approved).toBe(true);
      expect(await pendingList('upload', approver.token)).not.toContainEqual(item);
    });

    it('is 403 to list pending approvals as another user for a non-admin', async () => {
      for (const which of ['upload', 'edit']) {
        const response = await api.get(
          `/rest/pending-${which}-approvals?userId=${approver.id}`,
          viewer.token,
        );
        expect(response.status).toBe(403);
      }
    });

    it('pages the pending list on request', async () => {
      await createAsset([moderated], contributor.token);
      await createAsset([moderated], contributor.token);
      const response = await api
        .get('/rest/pending-upload-approvals?page=0&pageSize=1', approver.token)
        .expect(200);
      expect(response.body).toHaveLength(1);
      expect(Number(response.headers['x-total-count'])).toBeGreaterThanOrEqual(2);
      expect(response.headers.link).toContain('rel="next"');
    });

    it('is 404 to approve an asset the actor cannot see', async () => {
      const hidden = await createAsset([await insertAccessLevel(t)]);
      await api.post(`${hidden}/approve`, approver.token, {}).expect(404);
      await api.post('/rest/assets/999999/approve', t.adminToken, {}).expect(404);
    });
  });

  describe('edit approval', () => {
    it('keeps edits pending (unchanged for everyone, approved false) until approved', async () => {
      const path = await createAsset([level]);
      await setTitle(path, 'original', t.adminToken).expect(200);
      const response = await setTitle(path, 'proposed', contributor.token).expect(200);
      expect(response.body.approved).toBe(false);
      expect(response.body.attributes.find((a: { id: string }) => a.id === String(TITLE)).value).toBe(
        'original',
      );
      expect(await titleOf(path, viewer.token)).toBe('original');
      expect(await titleOf(path, contributor.token)).toBe('original');
      const url = `${t.baseUrl}${path}`;
      expect(await pendingList('edit', approver.token)).toContainEqual({
        assetInstanceUrl: url,
        assetApprovalUrl: `${url}/approve`,
      });
      expect(await pendingList('edit', viewer.token)).toEqual([]);
      expect(await pendingList('upload', approver.token)).not.toContainEqual(
        expect.objectContaining({ assetInstanceUrl: url }),
      );

      await setTitle(path, 'proposed again', contributor.token).expect(200);
      await api.post(`${path}/approve`, approver.token, {}).expect(200);
      const after = (await api.get(path, viewer.token).expect(200)).body;
      expect(after.approved).toBe(true);
      expect(after.attributes.find((a: { id: string }) => a.id === String(TITLE)).value).toBe(
        'proposed again',
      );
      expect(await pendingList('edit', approver.token)).not.toContainEqual(
        expect.objectContaining({ assetInstanceUrl: url }),
      );
    });

    it('stores access-level changes as pending too, and a round trip without changes stores nothing', async () => {
      const path = await createAsset([level]);
      const current = (await api.get(path, contributor.token).expect(200)).body;
      expect((await api.put(path, contributor.token, current).expect(200)).body.approved).toBe(true);
      const moved = await api
        .put(path, contributor.token, {
          attributes: [{ id: String(ACCESS_LEVELS), value: `${level},${moderated}` }],
        })
        .expect(200);
      expect(moved.body.accessLevelIds).toBe(String(level));
      expect(moved.body.approved).toBe(false);
      await api.post(`${path}/approve`, t.adminToken, {}).expect(200);
      expect((await api.get(path, t.adminToken).expect(200)).body.accessLevelIds).toBe(
        `${level},${moderated}`,
      );
    });

    it('refuses edits from users with neither edit nor edit-with-approval', async () => {
      const path = await createAsset([level]);
      const response = await setTitle(path, 'nope', viewer.token);
      expect(response.status).toBe(403);
    });
  });
});
