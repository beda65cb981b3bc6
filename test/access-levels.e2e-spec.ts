import { accessLevelRequests } from './helpers/access-level-requests';
import { bearerRequests, itRefusesRequestsWithoutAToken, pathOf } from './helpers/bearer-requests';
import { insertAssets } from './helpers/fixtures';
import { TestApp, TestUser } from './helpers/test-app';

describe('access levels', () => {
  let t: TestApp;
  let admin: TestUser;
  let alice: TestUser;
  const app = () => t;
  const http = bearerRequests(app);
  const api = accessLevelRequests(app);
  const rest = () => `${t.baseUrl}/rest/access-levels`;

  beforeAll(async () => {
    t = await TestApp.start();
    [admin, alice] = await Promise.all([t.createUser({ admin: true }), t.createUser()]);
  });

  afterAll(async () => {
    await t?.close();
  });

  itRefusesRequestsWithoutAToken(app, [
    ['GET', '/rest/access-levels'],
    ['POST', '/rest/access-levels'],
    ['PUT', '/rest/access-levels'],
    ['DELETE', '/rest/access-levels?id=1'],
    ['GET', '/rest/access-levels/1'],
    ['PUT', '/rest/access-levels/1'],
    ['DELETE', '/rest/access-levels/1'],
  ]);

  describe('writes by a user who is not an administrator', () => {
    it.each([
      ['POST', '/rest/access-levels', { name: 'x' }],
      ['PUT', '/rest/access-levels', [{ url: '/rest/access-levels/1', name: 'x' }]],
      ['DELETE', '/rest/access-levels?id=1', undefined],
      ['PUT', '/rest/access-levels/1', { name: 'x' }],
      ['DELETE', '/rest/access-levels/1', undefined],
    ])('%s %s is 403', async (method, path, body) => {
      const request =
        method === 'DELETE'
          ? http.delete(path, alice.token)
          : http[method === 'POST' ? 'post' : 'put'](path, alice.token, body as object);
      const response = await request.expect(403);
      expect(response.text).toBe('only administrators may change access levels');
    });
  });

  describe('the static Default level', () => {
    it('exists after boot, is static, top level and listed', async () => {
      const list = await http.get('/rest/access-levels', t.adminToken).expect(200);
      const defaults = [];
      for (const url of list.body as string[]) {
        const level = await http.get(pathOf(url), t.adminToken).expect(200);
        if (level.body.name === 'Default') defaults.push(level.body);
      }
      expect(defaults).toHaveLength(1);
      expect(defaults[0]).toMatchObject({ isStatic: true, parent: null, hasPermissions: true });
    });

    it('cannot be deleted (400, plain text)', async () => {
      const response = await http.delete('/rest/access-levels/1', t.adminToken).expect(400);
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
      expect(response.text).toBe('access level 1 is static and cannot be deleted');
      await http.get('/rest/access-levels/1', t.adminToken).expect(200);
    });

    it('is in the root resource, with the search', async () => {
      const response = await http.get('/rest', t.adminToken).expect(200);
      expect(response.body.api_version_1_3).toMatchObject({
        accessLevelsUrl: `${t.baseUrl}/rest/access-levels`,
        accessLevelSearchUrl: `${t.baseUrl}/rest/access-level-search`,
      });
    });
  });

  describe('POST /rest/access-levels', () => {
    it('creates a top-level level: 201, Location and the representation with defaults', async () => {
      const response = await http.post('/rest/access-levels', admin.token, { name: 'Marketing' }).expect(201);
      const id = response.body.id as number;
      expect(response.headers.location).toBe(`${rest()}/${id}`);
      expect(response.body).toEqual({
        url: `${rest()}/${id}`,
        id,
        name: 'Marketing',
        description: null,
        parent: null,
        imageUrl: `${rest()}/${id}/image`,
        isAlwaysAssignable: false,
        hasPermissions: true,
        isSelectedOnLoad: false,
        isBrowsable: true,
        showPromotedItems: false,
        showRecentItems: false,
        isStatic: false,
        children: [],
        count: 0,
      });
    });

    it('creates a child: hasPermissions defaults to false, writable fields are taken', async () => {
      const parent = await api.createLevel('Parent');
      const response = await http
        .post('/rest/access-levels', t.adminToken, {
          name: 'Child',
          parent: parent.url,
          description: 'about',
          isAlwaysAssignable: true,
          isSelectedOnLoad: true,
          isBrowsable: false,
          showPromotedItems: true,
          showRecentItems: true,
        })
        .expect(201);
      expect(response.body).toMatchObject({
        parent: parent.url,
        description: 'about',
        hasPermissions: false,
        isAlwaysAssignable: true,
        isSelectedOnLoad: true,
        isBrowsable: false,
        showPromotedItems: true,
        showRecentItems: true,
      });
      const withPermissions = await http
        .post('/rest/access-levels', t.adminToken, { name: 'Own', parent: parent.url, hasPermissions: true })
        .expect(201);
      expect(withPermissions.body.hasPermissions).toBe(true);
    });

    it('forces hasPermissions at the top level', async () => {
      const response = await http
        .post('/rest/access-levels', t.adminToken, { name: 'Top', hasPermissions: false })
        .expect(201);
      expect(response.body.hasPermissions).toBe(true);
    });

    it('ignores read-only fields', async () => {
      const response = await http
        .post('/rest/access-levels', t.adminToken, {
          name: 'RO',
          id: 999,
          isStatic: true,
          count: 5,
          children: [{}],
        })
        .expect(201);
      expect(response.body).toMatchObject({ isStatic: false, count: 0, children: [] });
      expect(response.body.id).not.toBe(999);
    });

    it.each([
      [{}, 'you must supply a name for the access level'],
      [{ name: '' }, 'the name of an access level cannot be blank'],
      [{ name: '  ' }, 'the name of an access level cannot be blank'],
      [{ name: 12 }, 'name must be shorter than or equal to 255 characters; name must be a string'],
      [{ name: 'x', isBrowsable: 'yes' }, 'isBrowsable must be a boolean value'],
      [{ name: 'x', parent: '/rest/users/1' }, '"/rest/users/1" is not an access level URL'],
      [
        { name: 'x', parent: 'http://h/rest/access-levels/1' },
        'parent: http://h/rest/access-levels/1 is not a URL of this service',
      ],
    ])('is 400 for %j', async (body, message) => {
      const response = await http.post('/rest/access-levels', t.adminToken, body).expect(400);
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
      expect(response.text).toBe(message);
    });

    it('is 400 when the parent names no access level', async () => {
      const parent = `${rest()}/99999`;
      const response = await http
        .post('/rest/access-levels', t.adminToken, { name: 'x', parent })
        .expect(400);
      expect(response.text).toBe(`"${parent}" names no access level`);
    });
  });

  describe('GET /rest/access-levels/{id}', () => {
    it('nests children at every level, [] when none, with direct counts', async () => {
      const root = await api.createLevel('Root');
      const a = await api.createLevel('A', { parent: root.url });
      const b = await api.createLevel('B', { parent: root.url });
      const a1 = await api.createLevel('A1', { parent: a.url });
      await insertAssets(t, [
        { accessLevelIds: [a.id] },
        { accessLevelIds: [a.id, a1.id] },
        { accessLevelIds: [root.id] },
      ]);
      const response = await http.get(pathOf(root.url), t.adminToken).expect(200);
      const shape = (node: { id: number; count: number; children: unknown[] }): unknown => ({
        id: node.id,
        count: node.count,
        children: (node.children as Array<{ id: number; count: number; children: unknown[] }>).map(shape),
      });
      expect(shape(response.body)).toEqual({
        id: root.id,
        count: 1,
        children: [
          { id: a.id, count: 2, children: [{ id: a1.id, count: 1, children: [] }] },
          { id: b.id, count: 0, children: [] },
        ],
      });
      expect(response.body.children[0]).toMatchObject({ parent: root.url, imageUrl: `${a.url}/image` });
    });

    it('is 404 for unknown and malformed ids', async () => {
      for (const path of ['/rest/access-levels/99999', '/rest/access-levels/x', '/rest/access-levels/0']) {
        const response = await http.get(path, t.adminToken).expect(404);
        expect(response.headers['content-type']).toMatch(/^text\/plain/);
      }
    });
  });

  describe('PUT /rest/access-levels/{id}', () => {
    it('changes only writable fields; read-only ones show their original values', async () => {
      const level = await api.createLevel('Before', { description: 'old' });
      const original = (await http.get(pathOf(level.url), t.adminToken).expect(200)).body;
      const response = await http
        .put(pathOf(level.url), t.adminToken, {
          ...original,
          url: `${rest()}/1`,
          id: 1,
          imageUrl: 'http://elsewhere/image',
          children: [{ name: 'sneaky' }],
          count: 42,
          isStatic: true,
          name: 'After',
          description: 'new',
          isAlwaysAssignable: true,
          isBrowsable: false,
        })
        .expect(200);
      expect(response.body).toEqual({
        ...original,
        name: 'After',
        description: 'new',
        isAlwaysAssignable: true,
        isBrowsable: false,
      });
    });

    it('leaves omitted fields unchanged; an empty description clears it', async () => {
      const level = await api.createLevel('Keep', { description: 'text', showRecentItems: true });
      const response = await http.put(pathOf(level.url), t.adminToken, { description: '' }).expect(200);
      expect(response.body).toMatchObject({ name: 'Keep', description: null, showRecentItems: true });
    });

    it('forces hasPermissions at the top level and lets it be written below', async () => {
      const top = await api.createLevel('PermTop');
      const child = await api.createLevel('PermChild', { parent: top.url });
      const topResponse = await http
        .put(pathOf(top.url), t.adminToken, { hasPermissions: false })
        .expect(200);
      expect(topResponse.body.hasPermissions).toBe(true);
      const childResponse = await http
        .put(pathOf(child.url), t.adminToken, { hasPermissions: true })
        .expect(200);
      expect(childResponse.body.hasPermissions).toBe(true);
      const moved = await http.put(pathOf(child.url), t.adminToken, { parent: null }).expect(200);
      expect(moved.body).toMatchObject({ parent: null, hasPermissions: true });
    });

    it('moves a level under another one, and back to the top with parent null', async () => {
      const x = await api.createLevel('X');
      const y = await api.createLevel('Y');
      const moved = await http.put(pathOf(y.url), t.adminToken, { parent: x.url }).expect(200);
      expect(moved.body.parent).toBe(x.url);
      const parent = await http.get(pathOf(x.url), t.adminToken).expect(200);
      expect(parent.body.children.map((child: { id: number }) => child.id)).toEqual([y.id]);
      const back = await http.put(pathOf(y.url), t.adminToken, { parent: null }).expect(200);
      expect(back.body.parent).toBeNull();
    });

    it('is 400 when moving a level under itself or one of its descendants', async () => {
      const p = await api.createLevel('P');
      const c = await api.createLevel('C', { parent: p.url });
      const g = await api.createLevel('G', { parent: c.url });
      for (const target of [p, c, g]) {
        const response = await http.put(pathOf(p.url), t.adminToken, { parent: target.url }).expect(400);
        expect(response.text).toBe(
          'an access level cannot be moved under itself or one of its own sub-access levels',
        );
      }
      const unchanged = await http.get(pathOf(p.url), t.adminToken).expect(200);
      expect(unchanged.body.parent).toBeNull();
    });

    it.each([
      [{ name: '' }, 'the name of an access level cannot be blank'],
      [{ name: null }, 'the name of an access level cannot be blank'],
      [{ parent: 'not a url' }, '"not a url" is not an access level URL'],
      [{ showPromotedItems: 1 }, 'showPromotedItems must be a boolean value'],
    ])('is 400 for %j', async (body, message) => {
      const level = await api.createLevel('Bad');
      const response = await http.put(pathOf(level.url), t.adminToken, body).expect(400);
      expect(response.text).toBe(message);
    });

    it('is 400 when the new parent names no access level, 404 for an unknown level', async () => {
      const level = await api.createLevel('Orphan');
      const parent = `${rest()}/99999`;
      const response = await http.put(pathOf(level.url), t.adminToken, { parent }).expect(400);
      expect(response.text).toBe(`"${parent}" names no access level`);
      await http.put('/rest/access-levels/99999', t.adminToken, { name: 'x' }).expect(404);
    });
  });
});
