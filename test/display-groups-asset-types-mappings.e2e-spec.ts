import { bearerRequests, itRefusesRequestsWithoutAToken, pathOf } from './helpers/bearer-requests';
import { TestApp, TestUser } from './helpers/test-app';

describe('display attribute groups, asset types and embedded-data mappings', () => {
  let t: TestApp;
  let admin: TestUser;
  let alice: TestUser;
  const api = bearerRequests(() => t);
  const attributeUrl = (id: number) => `${t.baseUrl}/rest/attributes/${id}`;

  beforeAll(async () => {
    t = await TestApp.start({ env: { DAM_LANGUAGES: 'en,fr' } });
    [admin, alice] = await Promise.all([t.createUser({ admin: true }), t.createUser()]);
  });

  afterAll(async () => {
    await t?.close();
  });

  describe('without a token', () => {
    itRefusesRequestsWithoutAToken(
      () => t,
      [
        ['GET', '/rest/display-attribute-groups'],
        ['POST', '/rest/display-attribute-groups'],
        ['GET', '/rest/display-attribute-groups/1'],
        ['PUT', '/rest/display-attribute-groups/1'],
        ['DELETE', '/rest/display-attribute-groups/1'],
        ['GET', '/rest/display-attribute-group'],
        ['GET', '/rest/display-attribute-group/1'],
        ['GET', '/rest/asset-types'],
        ['GET', '/rest/asset-types/1'],
        ['GET', '/rest/embedded-data-mappings'],
        ['POST', '/rest/embedded-data-mappings'],
        ['GET', '/rest/embedded-data-mappings/1'],
        ['PUT', '/rest/embedded-data-mappings/1'],
        ['DELETE', '/rest/embedded-data-mappings/1'],
      ],
    );
  });

  describe('the root resource', () => {
    it('links every collection of this area', async () => {
      const response = await api.get('/rest', alice.token).expect(200);
      expect(response.body.api_version_1_3).toMatchObject({
        attributesUrl: `${t.baseUrl}/rest/attributes`,
        listAttributeValuesUrl: `${t.baseUrl}/rest/list-attribute-values`,
        keywordsUrl: `${t.baseUrl}/rest/keywords`,
        displayAttributeGroupUrl: `${t.baseUrl}/rest/display-attribute-groups`,
        assetTypesUrl: `${t.baseUrl}/rest/asset-types`,
        embeddedDataMappingsUrl: `${t.baseUrl}/rest/embedded-data-mappings`,
      });
    });
  });

  describe('display attribute groups', () => {
    const label = (id: number, text: string) => ({ id, url: attributeUrl(id), label: text });

    it('has a seeded Default group with title, description and keywords, at both paths', async () => {
      const response = await api.get('/rest/display-attribute-groups', alice.token).expect(200);
      const expected = {
        url: `${t.baseUrl}/rest/display-attribute-groups/1`,
        id: 1,
        name: 'Default',
        displayOrder: 1,
        attributes: [label(1, 'Title'), label(2, 'Description'), label(3, 'Keywords')],
      };
      // The base collection is an array of URLs, each answering the object.
      expect(response.body[0]).toBe(expected.url);
      for (const url of response.body as string[]) {
        expect((await api.get(pathOf(url), alice.token).expect(200)).body.url).toBe(url);
      }
      expect((await api.get('/rest/display-attribute-group', alice.token).expect(200)).body).toEqual(
        response.body,
      );
      expect((await api.get('/rest/display-attribute-group/1', alice.token).expect(200)).body).toEqual(
        expected,
      );
      expect((await api.get('/rest/display-attribute-groups/1', alice.token).expect(200)).body).toEqual(
        expected,
      );
    });

    it('is created, changed and deleted by admins', async () => {
      const created = await api
        .post('/rest/display-attribute-group', admin.token, {
          name: 'Technical',
          displayOrder: 5,
          attributes: [attributeUrl(5), { id: 4 }, { url: attributeUrl(5) }],
        })
        .expect(201);
      expect(created.headers.location).toBe(`${t.baseUrl}/rest/display-attribute-groups/${created.body.id}`);
      expect(created.body).toMatchObject({
        name: 'Technical',
        displayOrder: 5,
        attributes: [label(5, 'File size'), label(4, 'Original filename')],
      });
      const path = pathOf(created.headers.location);
      const updated = await api
        .put(path, admin.token, {
          ...created.body,
          name: 'Tech',
          attributes: [...created.body.attributes, { id: 6 }],
        })
        .expect(200);
      expect(updated.body).toEqual({
        ...created.body,
        name: 'Tech',
        attributes: [label(5, 'File size'), label(4, 'Original filename'), label(6, 'Date added')],
      });
      expect((await api.put(path, admin.token, { displayOrder: 0 }).expect(200)).body).toMatchObject({
        name: 'Tech',
        displayOrder: 0,
        attributes: updated.body.attributes,
      });
      expect((await api.get('/rest/display-attribute-groups', alice.token)).body[0]).toBe(created.body.url);
      await api.delete(path, admin.token).expect(204);
      await api.get(path, alice.token).expect(404);
    });

    it('labels attributes in the reader language and drops deleted attributes', async () => {
      const custom = await api
        .post('/rest/attributes', admin.token, { label: 'Colour', typeId: 1 })
        .expect(201);
      await api
        .put(pathOf(custom.headers.location), admin.token, { label: 'Couleur' })
        .set('Content-Language', 'fr')
        .expect(200);
      const group = await api
        .post('/rest/display-attribute-groups', admin.token, {
          name: 'Custom',
          attributes: [custom.headers.location],
        })
        .expect(201);
      const path = pathOf(group.headers.location);
      expect((await api.get(path, alice.token).set('Accept-Language', 'fr')).body.attributes).toEqual([
        label(custom.body.id, 'Couleur'),
      ]);
      await api.delete(pathOf(custom.headers.location), admin.token).expect(204);
      expect((await api.get(path, alice.token).expect(200)).body.attributes).toEqual([]);
    });

    it.each([
      [{}, 'you must supply a name for the display attribute group'],
      [{ name: ' ' }, 'you must supply a name for the display attribute group'],
      [{ name: 'G', displayOrder: -1 }, 'displayOrder must be a whole number from 0 to 1000000'],
      [{ name: 'G', attributes: 'title' }, 'attributes must be an array of attribute URLs or {id} objects'],
      [{ name: 'G', attributes: ['/rest/keywords/1'] }, '"/rest/keywords/1" is not an attribute URL'],
      [
        { name: 'G', attributes: [{ url: 'http://elsewhere.invalid/rest/attributes/1' }] },
        'attributes: http://elsewhere.invalid/rest/attributes/1 is not a URL of this service',
      ],
      [{ name: 'G', attributes: [{ id: 999999 }] }, 'attribute 999999 does not exist'],
    ])('POST is 400 for %j', async (body, message) => {
      const response = await api.post('/rest/display-attribute-groups', admin.token, body).expect(400);
      expect(response.text).toBe(message);
    });

    it('is 403 for non-admin writes and 404 for unknown groups', async () => {
      await api.post('/rest/display-attribute-groups', alice.token, { name: 'Mine' }).expect(403);
      await api.put('/rest/display-attribute-groups/1', alice.token, { name: 'Mine' }).expect(403);
      await api.delete('/rest/display-attribute-groups/1', alice.token).expect(403);
      await api.get('/rest/display-attribute-groups/999999', alice.token).expect(404);
      await api.put('/rest/display-attribute-groups/999999', admin.token, { name: 'X' }).expect(404);
      await api.delete('/rest/display-attribute-groups/999999', admin.token).expect(404);
    });
  });

  describe('asset types', () => {
    it('lists the URLs of the seeded types, each answering the type', async () => {
      const response = await api.get('/rest/asset-types', alice.token).expect(200);
      expect(response.body).toEqual([1, 2, 3, 4].map((id) => `${t.baseUrl}/rest/asset-types/${id}`));
      const types = await Promise.all(
        (response.body as string[]).map(
          async (url) => (await api.get(pathOf(url), alice.token).expect(200)).body,
        ),
      );
      expect(types).toEqual(
        ['File', 'Image', 'Video', 'Audio'].map((name, index) => ({
          url: `${t.baseUrl}/rest/asset-types/${index + 1}`,
          id: index + 1,
          name,
        })),
      );
      const paged = await api.get('/rest/asset-types?page=1&pageSize=3', alice.token).expect(200);
      expect(paged.body).toEqual([response.body[3]]);
      expect(paged.headers['x-total-count']).toBe('4');
    });

    it('is 404 for an unknown asset type', async () => {
      await api.get('/rest/asset-types/5', alice.token).expect(404);
      await api.get('/rest/asset-types/x', alice.token).expect(404);
    });

    it('has no write methods, so writes are refused (405: the paths exist, for reading)', async () => {
      await api.post('/rest/asset-types', admin.token, { name: 'Document' }).expect(405);
      await api.delete('/rest/asset-types/1', alice.token).expect(405);
    });

    it('exists when asset types are enabled too', async () => {
      const enabled = await TestApp.start({ env: { DAM_ASSET_TYPES_ENABLED: 'true' } });
      try {
        const response = await enabled.http
          .get('/rest/asset-types')
          .auth(enabled.adminToken, { type: 'bearer' })
          .expect(200);
        expect(response.body).toHaveLength(4);
      } finally {
        await enabled.close();
      }
    });
  });

  describe('embedded-data mappings', () => {
    it('lists the URLs of the seeded mappings, each answering the mapping', async () => {
      const list = await api.get('/rest/embedded-data-mappings', alice.token).expect(200);
      expect(list.body).toHaveLength(5);
      const response = {
        body: await Promise.all(
          (list.body as string[]).map(
            async (url) => (await api.get(pathOf(url), alice.token).expect(200)).body,
          ),
        ),
      };
      expect(response.body.map((mapping: { url: string }) => mapping.url)).toEqual(list.body);
      const paged = await api.get('/rest/embedded-data-mappings?page=1&pageSize=2', alice.token).expect(200);
      expect(paged.body).toEqual(list.body.slice(2, 4));
      expect(paged.headers['x-total-count']).toBe('5');
      expect(response.body).toEqual(
        expect.arrayContaining([
          {
            url: `${t.baseUrl}/rest/embedded-data-mappings/1`,
            id: 1,
            type: 'EXIF',
            displayName: 'Image description',
            tagName: 'ImageDescription',
            mappingDirection: 'embed-to-attribute',
            attributeUrl: attributeUrl(2),
            attributeLabel: 'Description',
          },
          expect.objectContaining({ type: 'IPTC', tagName: 'Keywords', attributeUrl: attributeUrl(3) }),
          expect.objectContaining({ type: 'XMP', tagName: 'dc:title', attributeLabel: 'Title' }),
        ]),
      );
      expect((await api.get('/rest/embedded-data-mappings/1', alice.token).expect(200)).body).toEqual(
        response.body[0],
      );
    });

    it('is created, changed and deleted by admins', async () => {
      const created = await api
        .post('/rest/embedded-data-mappings', admin.token, {
          type: 'xmp',
          tagName: 'dc:creator',
          attributeUrl: attributeUrl(8),
        })
        .expect(201);
      expect(created.headers.location).toBe(created.body.url);
      expect(created.body).toMatchObject({
        type: 'XMP',
        tagName: 'dc:creator',
        displayName: 'dc:creator',
        mappingDirection: 'embed-to-attribute',
        attributeUrl: attributeUrl(8),
        attributeLabel: 'Added by',
      });
      const path = pathOf(created.body.url);
      const updated = await api
        .put(path, admin.token, {
          ...created.body,
          displayName: 'Creator',
          mappingDirection: 'both',
          attributeUrl: attributeUrl(1),
        })
        .expect(200);
      expect(updated.body).toEqual({
        ...created.body,
        displayName: 'Creator',
        mappingDirection: 'both',
        attributeUrl: attributeUrl(1),
        attributeLabel: 'Title',
      });
      await api.delete(path, admin.token).expect(204);
      await api.get(path, alice.token).expect(404);
    });

    it.each([
      [{ tagName: 'T', attributeUrl: '/rest/attributes/1' }, 'type must be one of EXIF, IPTC, XMP, VIDEO'],
      [
        { type: 'ID3', tagName: 'T', attributeUrl: '/rest/attributes/1' },
        'type must be one of EXIF, IPTC, XMP, VIDEO',
      ],
      [
        { type: 'EXIF', attributeUrl: '/rest/attributes/1' },
        'you must supply the tagName of the embedded data',
      ],
      [{ type: 'EXIF', tagName: 'T' }, 'you must supply the attributeUrl the tag maps to'],
      [
        { type: 'EXIF', tagName: 'T', attributeUrl: '/rest/keywords/1' },
        '"/rest/keywords/1" is not an attribute URL',
      ],
      [
        { type: 'EXIF', tagName: 'T', attributeUrl: 'https://elsewhere.invalid/rest/attributes/1' },
        'attributeUrl: https://elsewhere.invalid/rest/attributes/1 is not a URL of this service',
      ],
      [
        { type: 'EXIF', tagName: 'T', attributeUrl: '/rest/attributes/999999' },
        'attribute 999999 does not exist',
      ],
      [
        { type: 'EXIF', tagName: 'T', attributeUrl: '/rest/attributes/1', mappingDirection: 'sideways' },
        'mappingDirection must be one of embed-to-attribute, attribute-to-embed, both',
      ],
      [
        { type: 'EXIF', tagName: 'T', attributeUrl: '/rest/attributes/1', displayName: '' },
        'displayName cannot be blank',
      ],
    ])('POST is 400 for %j', async (body, message) => {
      const response = await api.post('/rest/embedded-data-mappings', admin.token, body).expect(400);
      expect(response.text).toBe(message);
    });

    it('is 403 for non-admin writes and 404 for unknown mappings', async () => {
      const body = { type: 'EXIF', tagName: 'Artist', attributeUrl: attributeUrl(1) };
      await api.post('/rest/embedded-data-mappings', alice.token, body).expect(403);
      await api.put('/rest/embedded-data-mappings/1', alice.token, body).expect(403);
      await api.delete('/rest/embedded-data-mappings/1', alice.token).expect(403);
      await api.get('/rest/embedded-data-mappings/999999', alice.token).expect(404);
      await api.put('/rest/embedded-data-mappings/999999', admin.token, body).expect(404);
      await api.delete('/rest/embedded-data-mappings/999999', admin.token).expect(404);
    });

    it('goes away with its attribute', async () => {
      const custom = await api
        .post('/rest/attributes', admin.token, { label: 'Camera', typeId: 1 })
        .expect(201);
      const mapping = await api
        .post('/rest/embedded-data-mappings', admin.token, {
          type: 'EXIF',
          tagName: 'Model',
          attributeUrl: custom.headers.location,
        })
        .expect(201);
      await api.delete(pathOf(custom.headers.location), admin.token).expect(204);
      await api.get(pathOf(mapping.body.url), alice.token).expect(404);
    });
  });
});
