import { AssetTypesService, AttributesCatalog, AttributeType, SystemAttribute } from '@dam/attributes';
import { bearerRequests, itRefusesRequestsWithoutAToken, pathOf } from './helpers/bearer-requests';
import { TestApp, TestUser } from './helpers/test-app';

describe('attributes', () => {
  let t: TestApp;
  let admin: TestUser;
  let alice: TestUser;

  beforeAll(async () => {
    t = await TestApp.start({ env: { DAM_LANGUAGES: 'en,fr' } });
    [admin, alice] = await Promise.all([t.createUser({ admin: true }), t.createUser()]);
  });

  afterAll(async () => {
    await t?.close();
  });

  const { get, post, put, delete: remove } = bearerRequests(() => t);

  async function createAttribute(body: object = {}): Promise<{ id: number; url: string }> {
    const response = await post('/rest/attributes', admin.token, {
      label: 'Colour',
      typeId: 1,
      ...body,
    }).expect(201);
    return { id: response.body.id as number, url: response.headers.location as string };
  }

  describe('without a token', () => {
    itRefusesRequestsWithoutAToken(
      () => t,
      [
        ['GET', '/rest/attributes'],
        ['POST', '/rest/attributes'],
        ['GET', '/rest/attributes/1'],
        ['PUT', '/rest/attributes/1'],
        ['DELETE', '/rest/attributes/1'],
      ],
    );
  });

  describe('the catalog', () => {
    it('holds the seeded system attributes with ids 1..10', async () => {
      const catalog = t.app.get(AttributesCatalog);
      const all = await catalog.all('en');
      expect(
        all.slice(0, 10).map((attribute) => [attribute.id, attribute.staticName, attribute.typeId]),
      ).toEqual([
        [1, SystemAttribute.Title, AttributeType.Text],
        [2, SystemAttribute.Description, AttributeType.TextArea],
        [3, SystemAttribute.Keywords, AttributeType.Keywords],
        [4, SystemAttribute.OriginalFilename, AttributeType.Text],
        [5, SystemAttribute.FileSize, AttributeType.Numeric],
        [6, SystemAttribute.DateAdded, AttributeType.DateTime],
        [7, SystemAttribute.DateLastModified, AttributeType.DateTime],
        [8, SystemAttribute.AddedBy, AttributeType.Text],
        [9, SystemAttribute.AccessLevels, AttributeType.AccessLevels],
        [10, SystemAttribute.Categories, AttributeType.Categories],
      ]);
      expect(await catalog.byStaticName(SystemAttribute.FileSize, 'en')).toMatchObject({
        label: 'File size',
        isReadOnly: true,
      });
      expect(await catalog.byId(1, 'en')).toMatchObject({ label: 'Title', isKeywordSearchable: true });
      expect(await catalog.byId(999, 'en')).toBeUndefined();
      expect(await catalog.listValues(1)).toEqual([]);
      expect(await catalog.assetTypes()).toEqual([
        { id: 1, name: 'File' },
        { id: 2, name: 'Image' },
        { id: 3, name: 'Video' },
        { id: 4, name: 'Audio' },
      ]);
      const assetTypes = t.app.get(AssetTypesService);
      expect(await assetTypes.exists(4)).toBe(true);
      expect(await assetTypes.exists(5)).toBe(false);
      expect(await catalog.embeddedDataMappings()).toEqual(
        expect.arrayContaining([
          {
            type: 'EXIF',
            tagName: 'ImageDescription',
            attributeId: 2,
            mappingDirection: 'embed-to-attribute',
          },
          { type: 'IPTC', tagName: 'Keywords', attributeId: 3, mappingDirection: 'embed-to-attribute' },
          { type: 'XMP', tagName: 'dc:title', attributeId: 1, mappingDirection: 'embed-to-attribute' },
        ]),
      );
    });
  });

  describe('GET', () => {
    it('lists attribute URLs to any signed-in user, system attributes first', async () => {
      const response = await get('/rest/attributes', alice.token).expect(200);
      expect((response.body as string[]).slice(0, 10)).toEqual(
        Array.from({ length: 10 }, (_, i) => `${t.baseUrl}/rest/attributes/${i + 1}`),
      );
    });

    it('pages with page and pageSize', async () => {
      const response = await get('/rest/attributes?page=1&pageSize=3', alice.token).expect(200);
      expect(response.body).toEqual([4, 5, 6].map((id) => `${t.baseUrl}/rest/attributes/${id}`));
      expect(Number(response.headers['x-total-count'])).toBeGreaterThanOrEqual(10);
      expect(response.headers.link).toContain('rel="next"');
    });

    it('shows one attribute with its URLs', async () => {
      const response = await get('/rest/attributes/3', alice.token).expect(200);
      expect(response.body).toEqual({
        url: `${t.baseUrl}/rest/attributes/3`,
        id: 3,
        label: 'Keywords',
        staticName: 'keywords',
        typeId: 7,
        isReadOnly: false,
        isKeywordSearchable: true,
        displayOrder: 3,
        listValuesUrl: null,
        keywordsUrl: `${t.baseUrl}/rest/attributes/3/keywords`,
      });
    });

    it('gives listValuesUrl only on list attributes and keywordsUrl only on keywords attributes', async () => {
      for (const typeId of [1, 2, 3, 4, 5, 6, 7, 8, 9]) {
        const created = await post('/rest/attributes', admin.token, {
          label: `Typed ${typeId}`,
          typeId,
        }).expect(201);
        const attributeUrl = `${t.baseUrl}/rest/attributes/${created.body.id}`;
        expect([typeId, created.body.listValuesUrl, created.body.keywordsUrl]).toEqual([
          typeId,
          typeId === AttributeType.List ? `${attributeUrl}/list-attribute-values` : null,
          typeId === AttributeType.Keywords ? `${attributeUrl}/keywords` : null,
        ]);
        const read = await get(pathOf(attributeUrl), alice.token).expect(200);
        expect(read.body).toEqual(created.body);
        // Whatever is linked answers.
        for (const link of [read.body.listValuesUrl, read.body.keywordsUrl]) {
          if (link !== null) await get(pathOf(link), alice.token).expect(200);
        }
      }
      const system = await get('/rest/attributes/1', alice.token).expect(200);
      expect(system.body).toMatchObject({ typeId: 1, listValuesUrl: null, keywordsUrl: null });
    });

    it.each(['999999', 'abc', '99999999999', '-1'])('is 404 for attribute %s', async (id) => {
      const response = await get(`/rest/attributes/${id}`, alice.token).expect(404);
      expect(response.type).toBe('text/plain');
    });
  });

  describe('POST', () => {
    it('creates a custom attribute: 201 with Location', async () => {
      const response = await post('/rest/attributes', admin.token, {
        label: ' Photographer ',
        typeId: 1,
        isKeywordSearchable: true,
        url: 'http://ignored.example/rest/attributes/1',
      }).expect(201);
      expect(response.headers.location).toBe(`${t.baseUrl}/rest/attributes/${response.body.id}`);
      expect(response.body).toMatchObject({
        label: 'Photographer',
        staticName: null,
        typeId: 1,
        isReadOnly: false,
        isKeywordSearchable: true,
      });
      expect(response.body.id).toBeGreaterThan(10);
      const fetched = await get(new URL(response.headers.location).pathname, alice.token).expect(200);
      expect(fetched.body).toEqual(response.body);
      const list = await get('/rest/attributes', alice.token).expect(200);
      expect(list.body).toContain(response.headers.location);
    });

    it('places a new attribute after the others unless displayOrder is given', async () => {
      const last = await createAttribute();
      const placed = await createAttribute({ displayOrder: 0 });
      const lastBody = (await get(`/rest/attributes/${last.id}`, alice.token)).body;
      expect(lastBody.displayOrder).toBeGreaterThan(10);
      const list = (await get('/rest/attributes', alice.token)).body as string[];
      expect(list[0]).toBe(placed.url);
    });

    it.each([
      [{ typeId: 1 }, 'you must supply a label for the attribute'],
      [{ label: '   ', typeId: 1 }, 'you must supply a label for the attribute'],
      [{ label: 'x'.repeat(256), typeId: 1 }, 'longer than 255 characters'],
      [{ label: 'A' }, 'typeId must be a whole number naming an attribute type'],
      [{ label: 'A', typeId: 'one' }, 'typeId must be a whole number naming an attribute type'],
      [{ label: 'A', typeId: 99 }, 'typeId 99 is not an attribute type'],
      [{ label: 'A', typeId: 0 }, 'typeId 0 is not an attribute type'],
      [{ label: 'A', typeId: 10 }, 'typeId 10 is reserved for system attributes'],
      [{ label: 'A', typeId: 11 }, 'typeId 11 is reserved for system attributes'],
      [{ label: 'A', typeId: 1, isKeywordSearchable: 'maybe' }, 'isKeywordSearchable must be true or false'],
      [
        { label: 'A', typeId: 1, displayOrder: 1e12 },
        'displayOrder must be a whole number from 0 to 1000000',
      ],
    ])('is 400 for %j', async (body, message) => {
      const response = await post('/rest/attributes', admin.token, body).expect(400);
      expect(response.type).toBe('text/plain');
      expect(response.text).toContain(message);
    });

    it('is 403 for a non-admin', async () => {
      const response = await post('/rest/attributes', alice.token, { label: 'Mine', typeId: 1 }).expect(403);
      expect(response.text).toBe('only administrators may manage attributes');
    });
  });

  describe('PUT', () => {
    it('changes a custom attribute through a GET-modify-PUT round trip', async () => {
      const { id } = await createAttribute({ typeId: 2 });
      const current = (await get(`/rest/attributes/${id}`, admin.token).expect(200)).body;
      const response = await put(`/rest/attributes/${id}`, admin.token, {
        ...current,
        label: 'Colour code',
        typeId: 8,
        isKeywordSearchable: true,
        displayOrder: 500,
        staticName: 'hacked',
        isReadOnly: true,
      }).expect(200);
      expect(response.body).toEqual({
        ...current,
        label: 'Colour code',
        typeId: 8,
        isKeywordSearchable: true,
        displayOrder: 500,
      });
    });

    it('lets a system attribute be relabelled but not retyped', async () => {
      const current = (await get('/rest/attributes/1', admin.token).expect(200)).body;
      await put('/rest/attributes/1', admin.token, { ...current, label: 'Name' }).expect(200);
      expect((await get('/rest/attributes/1', alice.token)).body.label).toBe('Name');
      const response = await put('/rest/attributes/1', admin.token, { typeId: 2 }).expect(400);
      expect(response.text).toBe('the type of the system attribute Name cannot change');
      await put('/rest/attributes/1', admin.token, { label: 'Title' }).expect(200);
    });

    it.each([
      [{ label: '' }, 'you must supply a label for the attribute'],
      [{ typeId: 11 }, 'typeId 11 is reserved for system attributes'],
      [{ typeId: 42 }, 'typeId 42 is not an attribute type'],
    ])('is 400 for %j', async (body, message) => {
      const { id } = await createAttribute();
      const response = await put(`/rest/attributes/${id}`, admin.token, body).expect(400);
      expect(response.text).toBe(message);
    });

    it('is 403 for a non-admin and 404 for an unknown attribute', async () => {
      const { id } = await createAttribute();
      await put(`/rest/attributes/${id}`, alice.token, { label: 'Mine' }).expect(403);
      await put('/rest/attributes/999999', admin.token, { label: 'Nothing' }).expect(404);
    });
  });

  describe('DELETE', () => {
    it('deletes a custom attribute: 204, then 404', async () => {
      const { id, url } = await createAttribute();
      await remove(`/rest/attributes/${id}`, admin.token).expect(204);
      await get(`/rest/attributes/${id}`, admin.token).expect(404);
      expect((await get('/rest/attributes', admin.token)).body).not.toContain(url);
    });

    it('refuses system attributes with 400', async () => {
      const response = await remove('/rest/attributes/9', admin.token).expect(400);
      expect(response.text).toBe('the system attribute Access levels cannot be deleted');
    });

    it('is 403 for a non-admin and 404 for an unknown attribute', async () => {
      const { id } = await createAttribute();
      await remove(`/rest/attributes/${id}`, alice.token).expect(403);
      await remove('/rest/attributes/999999', admin.token).expect(404);
    });
  });

  describe('labels per language', () => {
    it('writes with Content-Language and reads with Accept-Language, falling back to the default', async () => {
      const { id } = await createAttribute({ label: 'Colour' });
      await put(`/rest/attributes/${id}`, admin.token, { label: 'Couleur' })
        .set('Content-Language', 'fr')
        .expect(200);
      const path = `/rest/attributes/${id}`;
      expect((await get(path, alice.token).set('Accept-Language', 'fr').expect(200)).body.label).toBe(
        'Couleur',
      );
      expect((await get(path, alice.token).set('Accept-Language', 'en').expect(200)).body.label).toBe(
        'Colour',
      );
      expect((await get(path, alice.token).expect(200)).body.label).toBe('Colour');
      expect((await get('/rest/attributes/2', alice.token).set('Accept-Language', 'fr')).body.label).toBe(
        'Description',
      );
    });

    it('creates in a non-default language, which also serves as the default text', async () => {
      const response = await post('/rest/attributes', admin.token, { label: 'Photographe', typeId: 1 })
        .set('Content-Language', 'fr')
        .expect(201);
      const path = new URL(response.headers.location).pathname;
      expect((await get(path, alice.token).set('Accept-Language', 'fr')).body.label).toBe('Photographe');
      await put(path, admin.token, { label: 'Photographer' }).expect(200);
      expect((await get(path, alice.token).set('Accept-Language', 'fr')).body.label).toBe('Photographe');
      expect((await get(path, alice.token)).body.label).toBe('Photographer');
      expect(await t.app.get(AttributesCatalog).byId(response.body.id, 'fr')).toMatchObject({
        label: 'Photographe',
      });
    });

    it('is 400 for a Content-Language that is not configured', async () => {
      const response = await post('/rest/attributes', admin.token, { label: 'Farbe', typeId: 1 })
        .set('Content-Language', 'de')
        .expect(400);
      expect(response.text).toContain('Content-Language de is not one of the configured languages');
    });
  });
});
