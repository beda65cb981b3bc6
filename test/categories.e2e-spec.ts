import { insertAssets } from './helpers/fixtures';
import { defaultAccessLevelId } from './helpers/permission-fixtures';
import { TestApp, TestUser } from './helpers/test-app';

interface Category {
  url: string;
  id: number;
  name: string;
  description: string | null;
  parent: string | null;
  children: Category[];
}

describe('categories', () => {
  let t: TestApp;
  let admin: TestUser;
  let alice: TestUser;

  beforeAll(async () => {
    t = await TestApp.start();
    [admin, alice] = await Promise.all([t.createUser({ admin: true }), t.createUser()]);
  });

  afterAll(async () => {
    await t?.close();
  });

  const bearer = { type: 'bearer' } as const;
  const pathOf = (url: string) => new URL(url).pathname;
  const get = (path: string, token = t.adminToken) => t.http.get(path).auth(token, bearer);
  const post = (body: object, token = t.adminToken) =>
    t.http.post('/rest/categories').auth(token, bearer).send(body);
  const put = (url: string, body: object, token = t.adminToken) =>
    t.http.put(pathOf(url)).auth(token, bearer).send(body);

  async function create(name: string, parent?: Category, description?: string): Promise<Category> {
    const response = await post({ name, description, parent: parent?.url }).expect(201);
    return response.body as Category;
  }

  async function fetch(category: Category): Promise<Category> {
    return (await get(pathOf(category.url)).expect(200)).body as Category;
  }

  function expectPlainText(response: { headers: Record<string, string> }): void {
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
  }

  describe('without a token', () => {
    it.each([
      ['GET', '/rest/categories'],
      ['POST', '/rest/categories'],
      ['GET', '/rest/categories/1'],
      ['PUT', '/rest/categories/1'],
      ['DELETE', '/rest/categories/1'],
    ])('%s %s is 401', async (method, path) => {
      await t.http[method.toLowerCase() as 'get' | 'post' | 'put' | 'delete'](path).expect(401);
    });
  });

  it('the root resource links the categories and the category search', async () => {
    const root = await get('/rest').expect(200);
    expect(root.body.api_version_1_3).toMatchObject({
      categoriesUrl: `${t.baseUrl}/rest/categories`,
      categorySearchUrl: `${t.baseUrl}/rest/category-search`,
    });
  });

  describe('POST /rest/categories', () => {
    it('creates a top-level category: 201, Location and the representation', async () => {
      const response = await post({ name: 'Animals' }).expect(201);
      expect(response.headers.location).toMatch(new RegExp(`^${t.baseUrl}/rest/categories/\\d+$`));
      expect(response.body).toEqual({
        url: response.headers.location,
        id: expect.any(Number),
        name: 'Animals',
        description: null,
        parent: null,
        children: [],
      });
      expect(await fetch(response.body)).toEqual(response.body);
    });

    it('creates a child under a parent URL, which then lists it (nested, children [] at the leaves)', async () => {
      const parent = await create('Vehicles');
      const child = await create('Cars', parent, 'four wheels');
      const grandchild = await create('Electric', child);
      expect(child).toMatchObject({
        name: 'Cars',
        description: 'four wheels',
        parent: parent.url,
        children: [],
      });
      expect(await fetch(parent)).toEqual({
        ...parent,
        children: [{ ...child, children: [{ ...grandchild, children: [] }] }],
      });
    });

    it('an admin user (not only the application user) may create', async () => {
      await post({ name: 'By admin' }, admin.token).expect(201);
    });

    it.each([
      ['no body', undefined],
      ['no name', { description: 'd' }],
      ['an empty name', { name: '' }],
      ['a blank name', { name: '   ' }],
      ['a null name', { name: null }],
      ['a name that is not a string', { name: 12 }],
      ['a name too long', { name: 'x'.repeat(256) }],
      ['a parent that is not a URL', { name: 'n', parent: 'nonsense' }],
      ['a parent URL of another kind', { name: 'n', parent: '/rest/access-levels/1' }],
      ['a parent naming no category', { name: 'n', parent: '/rest/categories/999999' }],
      ['a parent URL of another origin', { name: 'n', parent: 'http://h/rest/categories/1' }],
      ['a parent that is not a string', { name: 'n', parent: 5 }],
    ])('is 400 with %s', async (_case, body) => {
      const request = t.http.post('/rest/categories').auth(t.adminToken, bearer);
      const response = await (body === undefined ? request : request.send(body)).expect(400);
      expectPlainText(response);
      expect(response.text.length).toBeGreaterThan(0);
    });

    it('is 403 for a non-admin, and for an admin acting as one', async () => {
      expectPlainText(await post({ name: 'x' }, alice.token).expect(403));
      await t.http
        .post(`/rest/categories?userId=${alice.id}`)
        .auth(t.adminToken, bearer)
        .send({ name: 'x' })
        .expect(403);
    });
  });

  describe('GET /rest/categories', () => {
    it('lists the URL of every category, top-level or not, to any user', async () => {
      const parent = await create('Listed');
      const child = await create('Listed child', parent);
      const response = await get('/rest/categories', alice.token).expect(200);
      expect(response.body).toEqual(expect.arrayContaining([parent.url, child.url]));
      for (const url of response.body as string[])
        expect(url).toMatch(new RegExp(`^${t.baseUrl}/rest/categories/\\d+$`));
    });

    it('pages with page and pageSize', async () => {
      await Promise.all([create('Page 1'), create('Page 2'), create('Page 3')]);
      const response = await get('/rest/categories?page=1&pageSize=2').expect(200);
      expect(response.body).toHaveLength(2);
      expect(Number(response.headers['x-total-count'])).toBeGreaterThanOrEqual(3);
      expect(response.headers.link).toContain('rel="first"');
    });

    it('is 403 for a non-admin acting as someone else', async () => {
      await get(`/rest/categories?userId=${admin.id}`, alice.token).expect(403);
    });
  });

  describe('GET /rest/categories/{id}', () => {
    it('any user reads a category', async () => {
      const category = await create('Readable', undefined, 'for all');
      expect((await get(pathOf(category.url), alice.token).expect(200)).body).toEqual(category);
    });

    it.each(['999999', 'abc', '0', '-1', '99999999999'])('/rest/categories/%s is 404', async (id) => {
      expectPlainText(await get(`/rest/categories/${id}`).expect(404));
    });

    it('is 403 for a non-admin acting as someone else', async () => {
      const category = await create('Guarded');
      await get(`${pathOf(category.url)}?userId=${admin.id}`, alice.token).expect(403);
    });
  });

  describe('PUT /rest/categories/{id}', () => {
    it('round-trips the representation; url, id, children and count are read-only', async () => {
      const category = await create('Original', undefined, 'before');
      const child = await create('Kept child', category);
      const original = await fetch(category);
      const response = await put(category.url, {
        ...original,
        name: 'Renamed',
        description: 'after',
        url: `${t.baseUrl}/rest/categories/424242`,
        id: 424242,
        children: [],
        count: 7,
      }).expect(200);
      expect(response.body).toEqual({ ...original, name: 'Renamed', description: 'after' });
      expect(response.body.children.map((c: Category) => c.id)).toEqual([child.id]);
      expect(await fetch(category)).toEqual(response.body);
      expect((await put(category.url, response.body).expect(200)).body).toEqual(response.body);
    });

    it('moves under another parent, back to the top with parent null, and leaves an omitted parent alone', async () => {
      const [a, b] = [await create('Move A'), await create('Move B')];
      const moving = await create('Moving', a);
      expect((await put(moving.url, { name: 'Moving', parent: b.url }).expect(200)).body.parent).toBe(b.url);
      expect((await fetch(a)).children).toEqual([]);
      expect((await fetch(b)).children.map((c) => c.id)).toEqual([moving.id]);
      expect((await put(moving.url, { name: 'Still moving' }).expect(200)).body.parent).toBe(b.url);
      expect((await put(moving.url, { parent: null }).expect(200)).body).toMatchObject({
        parent: null,
        name: 'Still moving',
      });
      expect((await fetch(b)).children).toEqual([]);
    });

    it('clears the description with null or an empty string', async () => {
      const category = await create('Described', undefined, 'text');
      expect((await put(category.url, { description: null }).expect(200)).body.description).toBeNull();
      await put(category.url, { description: 'again' }).expect(200);
      expect((await put(category.url, { description: '' }).expect(200)).body.description).toBeNull();
    });

    it('refuses to move a category under itself or any of its descendants (400)', async () => {
      const top = await create('Cycle top');
      const middle = await create('Cycle middle', top);
      const bottom = await create('Cycle bottom', middle);
      for (const target of [top, middle, bottom]) {
        expectPlainText(await put(top.url, { parent: target.url }).expect(400));
      }
      await put(middle.url, { parent: bottom.url }).expect(400);
      expect((await fetch(top)).parent).toBeNull();
      expect((await fetch(middle)).parent).toBe(top.url);
    });

    it('of two concurrent opposite moves, one succeeds and the other is refused: never a cycle', async () => {
      for (let round = 0; round < 5; round++) {
        const [a, b] = [await create(`Race A${round}`), await create(`Race B${round}`)];
        const responses = await Promise.all([put(a.url, { parent: b.url }), put(b.url, { parent: a.url })]);
        expect(responses.map((response) => response.status).sort()).toEqual([200, 400]);
        const parents = [(await fetch(a)).parent, (await fetch(b)).parent];
        expect(parents.filter((parent) => parent === null)).toHaveLength(1);
      }
    });

    it.each([
      ['an empty name', { name: '' }],
      ['a null name', { name: null }],
      ['a parent naming no category', { parent: '/rest/categories/999999' }],
      ['a parent that is not a category URL', { parent: '/rest/users/1' }],
      ['a parent URL of another origin', { parent: 'http://h/rest/categories/1' }],
      ['a description that is not a string', { description: 3 }],
    ])('is 400 with %s', async (_case, body) => {
      const category = await create('Unchanged');
      expectPlainText(await put(category.url, body).expect(400));
      expect((await fetch(category)).name).toBe('Unchanged');
    });

    it('is 404 for an unknown category', async () => {
      expectPlainText(
        await t.http
          .put('/rest/categories/999999')
          .auth(t.adminToken, bearer)
          .send({ name: 'x' })
          .expect(404),
      );
    });

    it('is 403 for a non-admin', async () => {
      const category = await create('Not yours');
      expectPlainText(await put(category.url, { name: 'Mine' }, alice.token).expect(403));
      expect((await fetch(category)).name).toBe('Not yours');
    });
  });

  describe('DELETE /rest/categories/{id}', () => {
    it('deletes an empty category: 204, then 404 and gone from the list', async () => {
      const parent = await create('Deleted parent');
      const category = await create('Deleted', parent);
      await t.http.delete(pathOf(category.url)).auth(admin.token, bearer).expect(204);
      await get(pathOf(category.url)).expect(404);
      expect((await get('/rest/categories').expect(200)).body).not.toContain(category.url);
      expect((await fetch(parent)).children).toEqual([]);
    });

    it('is 400 while the category has children', async () => {
      const parent = await create('Has children');
      await create('A child', parent);
      const response = await t.http.delete(pathOf(parent.url)).auth(t.adminToken, bearer).expect(400);
      expectPlainText(response);
      expect(response.text).toMatch(/subcategories/);
      await get(pathOf(parent.url)).expect(200);
    });

    it('is 400 while the category holds assets', async () => {
      const category = await create('Has assets');
      await insertAssets(t, [
        { accessLevelIds: [await defaultAccessLevelId(t)], categoryIds: [category.id] },
      ]);
      const response = await t.http.delete(pathOf(category.url)).auth(t.adminToken, bearer).expect(400);
      expectPlainText(response);
      expect(response.text).toMatch(/assets/);
      await get(pathOf(category.url)).expect(200);
    });

    it('is 404 for an unknown category', async () => {
      await t.http.delete('/rest/categories/999999').auth(t.adminToken, bearer).expect(404);
    });

    it('is 403 for a non-admin', async () => {
      const category = await create('Kept');
      await t.http.delete(pathOf(category.url)).auth(alice.token, bearer).expect(403);
      await get(pathOf(category.url)).expect(200);
    });
  });
});
