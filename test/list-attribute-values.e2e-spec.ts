import { AttributesCatalog } from '@dam/attributes';
import { bearerRequests, itRefusesRequestsWithoutAToken } from './helpers/bearer-requests';
import { TestApp, TestUser } from './helpers/test-app';

describe('list attribute values', () => {
  let t: TestApp;
  let admin: TestUser;
  let alice: TestUser;
  let listAttribute: { id: number; url: string };

  beforeAll(async () => {
    t = await TestApp.start();
    [admin, alice] = await Promise.all([t.createUser({ admin: true }), t.createUser()]);
    listAttribute = await createAttribute(6);
  });

  afterAll(async () => {
    await t?.close();
  });

  const { get, post, delete: remove } = bearerRequests(() => t);
  const valuesPath = (attributeId: number) => `/rest/attributes/${attributeId}/list-attribute-values`;

  async function createAttribute(typeId: number): Promise<{ id: number; url: string }> {
    const response = await post('/rest/attributes', t.adminToken, { label: `List ${typeId}`, typeId }).expect(
      201,
    );
    return { id: response.body.id as number, url: response.headers.location as string };
  }

  async function addValue(attributeId: number, body: object): Promise<{ url: string; value: string }> {
    const response = await post(valuesPath(attributeId), admin.token, body).expect(201);
    return response.body as { url: string; value: string };
  }

  describe('without a token', () => {
    itRefusesRequestsWithoutAToken(
      () => t,
      [
        ['GET', '/rest/attributes/1/list-attribute-values'],
        ['POST', '/rest/attributes/1/list-attribute-values'],
        ['GET', '/rest/list-attribute-values'],
        ['POST', '/rest/list-attribute-values'],
        ['GET', '/rest/list-attribute-values/1'],
        ['DELETE', '/rest/list-attribute-values/1'],
      ],
    );
  });

  describe('POST /rest/attributes/{id}/list-attribute-values', () => {
    it('adds a value: 201 with Location, url in the body ignored', async () => {
      const response = await post(valuesPath(listAttribute.id), admin.token, {
        url: `${t.baseUrl}/rest/list-attribute-values/777`,
        value: ' Red ',
        additionalValue: 'Rouge vif',
      }).expect(201);
      expect(response.headers.location).toMatch(new RegExp(`^${t.baseUrl}/rest/list-attribute-values/\\d+$`));
      expect(response.headers.location).not.toMatch(/\/777$/);
      expect(response.body).toEqual({
        url: response.headers.location,
        value: 'Red',
        additionalValue: 'Rouge vif',
      });
      const fetched = await get(new URL(response.headers.location).pathname, alice.token).expect(200);
      expect(fetched.body).toEqual(response.body);
    });

    it('keeps an empty additionalValue and leaves an omitted one null', async () => {
      expect(await addValue(listAttribute.id, { value: 'Amber', additionalValue: '' })).toMatchObject({
        additionalValue: '',
      });
      expect(await addValue(listAttribute.id, { value: 'Blue' })).toMatchObject({ additionalValue: null });
    });

    it.each([[{}], [{ value: '' }], [{ value: '   ' }], [{ value: null }], [{ additionalValue: 'only' }]])(
      'is 400 "the list value cannot be blank" for %j',
      async (body) => {
        const response = await post(valuesPath(listAttribute.id), admin.token, body).expect(400);
        expect(response.type).toBe('text/plain');
        expect(response.text).toBe('the list value cannot be blank');
      },
    );

    it.each([
      [{ value: 5 }, 'the list value must be text'],
      [{ value: 'x'.repeat(256) }, 'the list value can be at most 255 characters'],
      [{ value: 'Ok', additionalValue: 7 }, 'additionalValue must be text'],
    ])('is 400 for %j', async (body, message) => {
      const response = await post(valuesPath(listAttribute.id), admin.token, body).expect(400);
      expect(response.text).toBe(message);
    });

    it('is 409 for a value the attribute already has, whatever its case', async () => {
      await addValue(listAttribute.id, { value: 'Green' });
      for (const value of ['Green', 'green']) {
        const response = await post(valuesPath(listAttribute.id), admin.token, { value }).expect(409);
        expect(response.text).toBe(`the list value ${value} already exists for this attribute`);
      }
      const other = await createAttribute(6);
      await addValue(other.id, { value: 'Green' });
    });

    it('is 400 for an attribute that is not a list attribute', async () => {
      const response = await post(valuesPath(1), admin.token, { value: 'Nope' }).expect(400);
      expect(response.text).toBe('attribute 1 is not a list attribute, so it has no list values');
    });

    it('is 404 for an unknown attribute', async () => {
      await post(valuesPath(999999), admin.token, { value: 'Nope' }).expect(404);
      await post('/rest/attributes/abc/list-attribute-values', admin.token, { value: 'Nope' }).expect(404);
    });

    it('is 403 for a non-admin', async () => {
      await post(valuesPath(listAttribute.id), alice.token, { value: 'Mine' }).expect(403);
    });
  });

  describe('GET /rest/attributes/{id}/list-attribute-values', () => {
    it('lists the values of that attribute only, in the order they were added, to anyone signed in', async () => {
      const attribute = await createAttribute(6);
      const first = await addValue(attribute.id, { value: 'Small', additionalValue: 'S' });
      const second = await addValue(attribute.id, { value: 'Large' });
      const response = await get(valuesPath(attribute.id), alice.token).expect(200);
      expect(response.body).toEqual([
        { url: first.url, value: 'Small', additionalValue: 'S' },
        { url: second.url, value: 'Large', additionalValue: null },
      ]);
      expect(await t.app.get(AttributesCatalog).listValues(attribute.id)).toEqual([
        expect.objectContaining({ attributeId: attribute.id, value: 'Small', additionalValue: 'S' }),
        expect.objectContaining({ attributeId: attribute.id, value: 'Large', additionalValue: null }),
      ]);
    });

    it('is 400 for a non-list attribute and 404 for an unknown one', async () => {
      await get(valuesPath(2), alice.token).expect(400);
      await get(valuesPath(999999), alice.token).expect(404);
    });
  });

  describe('/rest/list-attribute-values', () => {
    it('lists every value, or those of one attribute', async () => {
      const attribute = await createAttribute(6);
      const value = await addValue(attribute.id, { value: 'Only' });
      const all = await get('/rest/list-attribute-values', alice.token).expect(200);
      expect(all.body).toEqual(
        expect.arrayContaining([{ url: value.url, value: 'Only', additionalValue: null }]),
      );
      expect(all.body.length).toBeGreaterThan(1);
      const filtered = await get(
        `/rest/list-attribute-values?attributeId=${attribute.id}`,
        alice.token,
      ).expect(200);
      expect(filtered.body).toEqual([{ url: value.url, value: 'Only', additionalValue: null }]);
      await get('/rest/list-attribute-values?attributeId=x', alice.token).expect(400);
    });

    it('pages with page and pageSize', async () => {
      const response = await get('/rest/list-attribute-values?page=0&pageSize=1', alice.token).expect(200);
      expect(response.body).toHaveLength(1);
      expect(Number(response.headers['x-total-count'])).toBeGreaterThan(1);
    });

    it('adds a value to the attribute named by attributeUrl or attributeId', async () => {
      const attribute = await createAttribute(6);
      const byUrl = await post('/rest/list-attribute-values', admin.token, {
        attributeUrl: attribute.url,
        value: 'One',
      }).expect(201);
      expect(byUrl.headers.location).toBe(byUrl.body.url);
      await post('/rest/list-attribute-values', admin.token, {
        attributeId: attribute.id,
        value: 'Two',
      }).expect(201);
      const values = await get(valuesPath(attribute.id), alice.token).expect(200);
      expect(values.body.map((value: { value: string }) => value.value)).toEqual(['One', 'Two']);
      await post('/rest/list-attribute-values', admin.token, {
        attributeId: attribute.id,
        value: 'one',
      }).expect(409);
    });

    it.each([
      [{ value: 'X' }, 'you must name the attribute of the list value (attributeUrl or attributeId)'],
      [{ attributeUrl: '/rest/users/1', value: 'X' }, '"/rest/users/1" is not an attribute URL'],
      [
        { attributeUrl: 'http://x/rest/attributes/1', value: 'X' },
        'attributeUrl: http://x/rest/attributes/1 is not a URL of this service',
      ],
      [{ attributeId: 'seven', value: 'X' }, 'attributeId must be a whole number'],
      [{ attributeId: 999999, value: 'X' }, 'attribute 999999 does not exist'],
      [{ attributeId: 1, value: 'X' }, 'attribute 1 is not a list attribute, so it has no list values'],
      [{ attributeId: 1, value: '' }, 'the list value cannot be blank'],
    ])('is 400 for %j', async (body, message) => {
      const response = await post('/rest/list-attribute-values', admin.token, body).expect(400);
      expect(response.text).toBe(message);
    });

    it('is 403 for a non-admin', async () => {
      await post('/rest/list-attribute-values', alice.token, {
        attributeId: listAttribute.id,
        value: 'Mine',
      }).expect(403);
    });
  });

  describe('/rest/list-attribute-values/{id}', () => {
    it('is 404 for an unknown value', async () => {
      await get('/rest/list-attribute-values/999999', alice.token).expect(404);
      await get('/rest/list-attribute-values/abc', alice.token).expect(404);
    });

    it('deletes a value for an admin: 204, then 404; 403 for others', async () => {
      const value = await addValue(listAttribute.id, { value: 'Doomed' });
      const path = new URL(value.url).pathname;
      await remove(path, alice.token).expect(403);
      await remove(path, admin.token).expect(204);
      await get(path, alice.token).expect(404);
      await remove(path, admin.token).expect(404);
    });

    it('goes away with its attribute', async () => {
      const attribute = await createAttribute(6);
      const value = await addValue(attribute.id, { value: 'Gone' });
      await remove(`/rest/attributes/${attribute.id}`, admin.token).expect(204);
      await get(new URL(value.url).pathname, alice.token).expect(404);
    });
  });
});
