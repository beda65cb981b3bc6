import { accessLevelRequests } from './helpers/access-level-requests';
import { bearerRequests, itRefusesRequestsWithoutAToken, pathOf } from './helpers/bearer-requests';
import { TestApp, TestUser } from './helpers/test-app';

describe('groups', () => {
  let t: TestApp;
  let admin: TestUser;
  let alice: TestUser;
  let photos: { id: number; url: string };
  let press: { id: number; url: string };
  const app = () => t;
  const http = bearerRequests(app);
  const api = accessLevelRequests(app);

  beforeAll(async () => {
    t = await TestApp.start();
    [admin, alice] = await Promise.all([t.createUser({ admin: true }), t.createUser()]);
    photos = await api.createLevel('Photos');
    press = await api.createLevel('Press');
  });

  afterAll(async () => {
    await t?.close();
  });

  itRefusesRequestsWithoutAToken(app, [
    ['GET', '/rest/groups'],
    ['POST', '/rest/groups'],
    ['GET', '/rest/groups/1'],
    ['PUT', '/rest/groups/1'],
    ['DELETE', '/rest/groups/1'],
  ]);

  describe('for a user who is not an administrator', () => {
    let existing: string;
    beforeAll(async () => {
      existing = pathOf((await api.createGroup('Existing')).url);
    });

    it.each([
      ['GET', () => '/rest/groups'],
      ['POST', () => '/rest/groups'],
      ['GET', () => existing],
      ['PUT', () => existing],
      ['DELETE', () => existing],
    ])('%s is 403', async (method, path) => {
      const request =
        method === 'GET'
          ? http.get(path(), alice.token)
          : method === 'DELETE'
            ? http.delete(path(), alice.token)
            : http[method === 'POST' ? 'post' : 'put'](path(), alice.token, { name: 'x' });
      const response = await request.expect(403);
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
      expect(response.text).toMatch(/administrators/);
    });

    it('is 403 also when the admin acts as that user', async () => {
      await http.get(`/rest/groups?userId=${alice.id}`, t.adminToken).expect(403);
    });
  });

  describe('POST /rest/groups', () => {
    it('creates a group with permissions: 201, Location and the representation', async () => {
      const response = await http
        .post('/rest/groups', admin.token, {
          name: 'Editors',
          accessLevelPermissions: [
            { accessLevelUrl: press.url, permissions: ['view'] },
            { accessLevelUrl: photos.url, permissions: ['edit', 'view', 'approve', 'view'] },
          ],
        })
        .expect(201);
      const id = response.body.id as number;
      expect(response.headers.location).toBe(`${t.baseUrl}/rest/groups/${id}`);
      expect(response.body).toEqual({
        url: response.headers.location,
        id,
        name: 'Editors',
        accessLevelPermissions: [
          { accessLevelUrl: photos.url, permissions: ['view', 'edit', 'approve'] },
          { accessLevelUrl: press.url, permissions: ['view'] },
        ].sort((a, b) => a.accessLevelUrl.localeCompare(b.accessLevelUrl, 'en', { numeric: true })),
      });
      const read = await http.get(pathOf(response.headers.location), t.adminToken).expect(200);
      expect(read.body).toEqual(response.body);
    });

    it('accepts every permission name of the contract', async () => {
      const all = [
        'view',
        'download',
        'upload',
        'uploadWithApproval',
        'edit',
        'editWithApproval',
        'delete',
        'approve',
      ];
      const response = await http
        .post('/rest/groups', t.adminToken, {
          name: 'All',
          accessLevelPermissions: [{ accessLevelUrl: photos.url, permissions: all }],
        })
        .expect(201);
      expect(response.body.accessLevelPermissions).toEqual([
        { accessLevelUrl: photos.url, permissions: all },
      ]);
    });

    it('creates a group without permissions', async () => {
      const response = await http.post('/rest/groups', t.adminToken, { name: 'Empty' }).expect(201);
      expect(response.body.accessLevelPermissions).toEqual([]);
    });

    it.each([
      [{}, /name/],
      [{ name: '   ' }, /blank/],
      [{ name: 7 }, /name must be a string/],
      [{ name: 'g', accessLevelPermissions: 'view' }, /accessLevelPermissions/],
      [{ name: 'g', accessLevelPermissions: [{ accessLevelUrl: 'x', permissions: 'view' }] }, /permissions/],
    ])('is 400 for %j', async (body, message) => {
      const response = await http.post('/rest/groups', t.adminToken, body).expect(400);
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
      expect(response.text).toMatch(message);
    });

    it('is 400 naming an unknown permission', async () => {
      const response = await http
        .post('/rest/groups', t.adminToken, {
          name: 'g',
          accessLevelPermissions: [{ accessLevelUrl: photos.url, permissions: ['view', 'fly'] }],
        })
        .expect(400);
      expect(response.text).toContain('"fly" is not a permission');
    });

    it('is 400 naming a URL that is not an access level URL', async () => {
      const url = `${t.baseUrl}/rest/users/1`;
      const response = await http
        .post('/rest/groups', t.adminToken, {
          name: 'g',
          accessLevelPermissions: [{ accessLevelUrl: url, permissions: ['view'] }],
        })
        .expect(400);
      expect(response.text).toBe(`"${url}" is not an access level URL`);
    });

    it('is 400 naming an access level URL that names no access level', async () => {
      const url = `${t.baseUrl}/rest/access-levels/99999`;
      const response = await http
        .post('/rest/groups', t.adminToken, {
          name: 'g',
          accessLevelPermissions: [{ accessLevelUrl: url, permissions: ['view'] }],
        })
        .expect(400);
      expect(response.text).toBe(`"${url}" names no access level`);
    });
  });

  describe('GET /rest/groups', () => {
    it('lists the URLs of every group, and pages', async () => {
      const group = await api.createGroup('Listed');
      const response = await http.get('/rest/groups', t.adminToken).expect(200);
      expect(response.body).toContain(group.url);
      for (const url of response.body as string[])
        expect(url).toMatch(new RegExp(`^${t.baseUrl}/rest/groups/\\d+$`));
      const page = await http.get('/rest/groups?page=0&pageSize=1', t.adminToken).expect(200);
      expect(page.body).toHaveLength(1);
      expect(Number(page.headers['x-total-count'])).toBe(response.body.length);
    });

    it('is in the root resource as groupsUrl', async () => {
      const response = await http.get('/rest', t.adminToken).expect(200);
      expect(response.body.api_version_1_3.groupsUrl).toBe(`${t.baseUrl}/rest/groups`);
    });
  });

  describe('GET/PUT/DELETE /rest/groups/{id}', () => {
    it('is 404 for an unknown or malformed id', async () => {
      for (const path of ['/rest/groups/99999', '/rest/groups/abc', '/rest/groups/99999999999']) {
        const response = await http.get(path, t.adminToken).expect(404);
        expect(response.headers['content-type']).toMatch(/^text\/plain/);
      }
      await http.put('/rest/groups/99999', t.adminToken, { name: 'x' }).expect(404);
      await http.delete('/rest/groups/99999', t.adminToken).expect(404);
    });

    it('PUT replaces the name and all permissions, ignoring url and id', async () => {
      const group = await api.createGroup('Before', {
        [photos.url]: ['view', 'edit'],
        [press.url]: ['view'],
      });
      const response = await http
        .put(pathOf(group.url), t.adminToken, {
          url: 'http://elsewhere/rest/groups/1',
          id: 1,
          name: 'After',
          accessLevelPermissions: [{ accessLevelUrl: press.url, permissions: ['download'] }],
        })
        .expect(200);
      expect(response.body).toEqual({
        url: group.url,
        id: group.id,
        name: 'After',
        accessLevelPermissions: [{ accessLevelUrl: press.url, permissions: ['download'] }],
      });
    });

    it('PUT leaves omitted fields unchanged and clears permissions with []', async () => {
      const group = await api.createGroup('Keep', { [photos.url]: ['view'] });
      const renamed = await http.put(pathOf(group.url), t.adminToken, { name: 'Kept' }).expect(200);
      expect(renamed.body.accessLevelPermissions).toEqual([
        { accessLevelUrl: photos.url, permissions: ['view'] },
      ]);
      const cleared = await http
        .put(pathOf(group.url), t.adminToken, { accessLevelPermissions: [] })
        .expect(200);
      expect(cleared.body).toMatchObject({ name: 'Kept', accessLevelPermissions: [] });
    });

    it('PUT with a bad permission changes nothing (one transaction)', async () => {
      const group = await api.createGroup('Atomic', { [photos.url]: ['view'] });
      await http
        .put(pathOf(group.url), t.adminToken, {
          name: 'Changed',
          accessLevelPermissions: [{ accessLevelUrl: press.url, permissions: ['view', 'bogus'] }],
        })
        .expect(400);
      const read = await http.get(pathOf(group.url), t.adminToken).expect(200);
      expect(read.body).toMatchObject({
        name: 'Atomic',
        accessLevelPermissions: [{ accessLevelUrl: photos.url }],
      });
    });

    it('DELETE removes the group and its memberships', async () => {
      const group = await api.createGroup('Doomed', { [photos.url]: ['view'] });
      const bob = await t.createUser();
      await api.joinGroups(bob, [group]);
      await http.delete(pathOf(group.url), t.adminToken).expect(204);
      await http.get(pathOf(group.url), t.adminToken).expect(404);
      const user = await http.get(pathOf(bob.url), t.adminToken).expect(200);
      expect(user.body.groupIds).toEqual([]);
    });
  });

  describe('membership', () => {
    it('gives a member the permissions of the group', async () => {
      const carol = await t.createUser();
      const before = await http.get('/rest/access-levels', carol.token).expect(200);
      expect(before.body).not.toContain(photos.url);
      const viewers = await api.createGroup('Viewers', { [photos.url]: ['view'] });
      await api.joinGroups(carol, [viewers]);
      const after = await http.get('/rest/access-levels', carol.token).expect(200);
      expect(after.body).toEqual([photos.url]);
    });
  });
});
