import { XMLSerializer } from '@xmldom/xmldom';
import type { Test } from 'supertest';
import { pathOf } from './helpers/bearer-requests';
import { fetchSigned, sha256 } from './helpers/content-fixtures';
import { Grants } from './helpers/grant-fixtures';
import { TestApp } from './helpers/test-app';
import { nodes, parseXml, texts, textOf } from './helpers/xml';

/**
 * Issue 15 item 1: Asset Bank clients replayed as they really send their requests. With
 * DAM_XML_BY_DEFAULT=true, a PHP client (no Accept), a Python harvester (`*∕*`) and a Java client
 * (`application/xml`) all read XML, parsed here with an XML parser and XPath.
 */
describe('XML for Asset Bank clients (DAM_XML_BY_DEFAULT=true)', () => {
  let t: TestApp;
  const assetIds: number[] = [];
  let downloadable: string;
  const bytes = Buffer.from('content for the XML clients');

  /** Fixtures are made in JSON, as a JSON client would. */
  const json = (request: Test): Test =>
    request.auth(t.adminToken, { type: 'bearer' }).set('Accept', 'application/json');

  beforeAll(async () => {
    t = await TestApp.start({ env: { DAM_XML_BY_DEFAULT: 'true' } });
    const level = await new Grants(t).topLevel('Default');
    for (let i = 0; i < 5; i += 1) {
      const created = await json(t.http.post('/rest/assets'))
        .send({ accessLevels: [{ id: level }] })
        .expect(201);
      assetIds.push(created.body.id as number);
    }
    downloadable = pathOf(t.rest(`assets/${assetIds[0]}`));
    await json(t.http.put(`${downloadable}/content`))
      .set('Content-Type', 'application/octet-stream')
      .set('Content-Disposition', 'attachment; filename="report.txt"')
      .send(bytes)
      .expect(200);
    const parent = await json(t.http.post('/rest/categories')).send({ name: 'Places' }).expect(201);
    await json(t.http.post('/rest/categories'))
      .send({ name: 'Bridges', parent: parent.body.url })
      .expect(201);
    const me = await json(t.http.get('/rest/authenticated-user')).expect(200);
    await json(t.http.post(`/rest/users/${me.body.id}/lightboxes`))
      .send({ name: 'Harvest' })
      .expect(201);
  });
  afterAll(() => t?.close());

  const clients: Array<[string, string | undefined]> = [
    ['PHP client, no Accept', undefined],
    ['Python harvester, Accept */*', '*/*'],
    ['Java client, Accept application/xml', 'application/xml'],
  ];

  describe.each(clients)('%s', (_client, accept) => {
    const get = (url: string): Test => {
      const request = t.http.get(url.startsWith('http') ? pathOf(url) + new URL(url).search : url);
      request.auth(t.adminToken, { type: 'bearer' });
      return accept === undefined ? request : request.set('Accept', accept);
    };
    const xml = async (url: string): Promise<Document> => {
      const response = await get(url).expect(200);
      expect(response.headers['content-type']).toMatch(/^application\/xml/);
      expect(response.headers.vary).toMatch(/Accept/i);
      return parseXml(response.text);
    };
    const root = async (): Promise<Document> => xml('/rest');

    it('reads the root links', async () => {
      const document = await root();
      expect(textOf(document, '/root/api_name')).toBe('DAM REST API');
      expect(textOf(document, '/root/api_version_1_3/assetSearchUrl')).toBe(t.rest('asset-search'));
      expect(nodes(document, '/root/api_version_1_3/*').length).toBeGreaterThanOrEqual(23);
    });

    it('pages through asset-search until an empty page, then reads each asset', async () => {
      const searchUrl = textOf(await root(), '/root/api_version_1_3/assetSearchUrl');
      const seen: string[] = [];
      for (let page = 0; ; page += 1) {
        const document = await xml(`${searchUrl}?pageSize=2&page=${page}`);
        expect(nodes(document, '/assetSummaries')).toHaveLength(1);
        const ids = texts(document, '//assetSummary/id');
        if (ids.length === 0) break;
        expect(ids.length).toBeLessThanOrEqual(2);
        seen.push(...ids);
        expect(page).toBeLessThan(10);
      }
      expect(seen.map(Number).sort((a, b) => a - b)).toEqual(assetIds);

      const summary = await xml(`${searchUrl}?pageSize=1`);
      const assetUrl = textOf(summary, '//assetSummary[1]/fullAssetUrl');
      const asset = await xml(assetUrl);
      expect(textOf(asset, '/asset/url')).toBe(assetUrl);
      expect(textOf(asset, '/asset/submitted')).toBe('true');
      expect(nodes(asset, '/asset/attributes/attribute').length).toBeGreaterThan(0);
      expect(texts(asset, '/asset/attributes/attribute/name')).toContain('Title');
    });

    it('reads the attributes, each answering an attribute', async () => {
      const attributesUrl = textOf(await root(), '/root/api_version_1_3/attributesUrl');
      const list = await xml(attributesUrl);
      const urls = texts(list, '/urls/url');
      expect(urls.length).toBeGreaterThan(0);
      const attribute = await xml(urls[0]);
      expect(textOf(attribute, '/attribute/url')).toBe(urls[0]);
      expect(textOf(attribute, '/attribute/id')).toMatch(/^\d+$/);
    });

    it('reads the categories with their children', async () => {
      const categoriesUrl = textOf(await root(), '/root/api_version_1_3/categoriesUrl');
      const list = await xml(categoriesUrl);
      const tops = await Promise.all(texts(list, '/urls/url').map((url) => xml(url)));
      const places = tops.find((category) => textOf(category, '/category/name') === 'Places');
      expect(places).toBeDefined();
      expect(texts(places!, '/category/children/category/name')).toEqual(['Bridges']);
      expect(nodes(places!, '/category/parent[@xsi:nil="true"]')).toHaveLength(1);
      expect(nodes(places!, '/category/children/category/children/*')).toHaveLength(0);
    });

    it('downloads content through the 303, untouched by negotiation', async () => {
      const asset = await xml(downloadable);
      const redirect = await get(textOf(asset, '/asset/contentUrl')).redirects(0).expect(303);
      expect(redirect.headers['content-type'] ?? '').not.toMatch(/xml/);
      const fetched = await fetchSigned(redirect.headers.location as string);
      expect(fetched.status).toBe(200);
      expect(fetched.sha256).toBe(sha256(bytes));
      const viaUrl = await xml(textOf(asset, '/asset/contentUrlUrl'));
      expect((await fetchSigned(textOf(viaUrl, '/contentUrl/url'))).sha256).toBe(sha256(bytes));
    });

    it("reads the actor's lightboxes", async () => {
      const lightboxesUrl = textOf(await root(), '/root/api_version_1_3/lightboxesUrl');
      const response = await get(lightboxesUrl).redirects(1).expect(200);
      expect(response.headers['content-type']).toMatch(/^application\/xml/);
      const list = parseXml(response.text);
      expect(texts(list, '/lightboxes/lightbox/name')).toEqual(['Harvest']);
      const lightbox = await xml(textOf(list, '/lightboxes/lightbox/lightboxInstanceUrl'));
      expect(textOf(lightbox, '/lightbox/name')).toBe('Harvest');
    });
  });

  describe('an asset fetched as XML goes back as an XML PUT body', () => {
    const asXml = async (path: string): Promise<string> =>
      (await t.http.get(path).auth(t.adminToken, { type: 'bearer' }).expect(200)).text;
    const putXml = (path: string, body: string): Test =>
      t.http
        .put(path)
        .auth(t.adminToken, { type: 'bearer' })
        .set('Content-Type', 'application/xml')
        .send(body);

    it('unchanged, and with a parent added in the document', async () => {
      const path = pathOf(t.rest(`assets/${assetIds[1]}`));
      const before = await asXml(path);
      const unchanged = await putXml(path, before).expect(200);
      expect(textOf(parseXml(unchanged.text), '/asset/id')).toBe(String(assetIds[1]));
      expect(await asXml(path)).toBe(before);

      const document = parseXml(before);
      const parents = nodes(document, '/asset/parents')[0] as Element;
      const url = document.createElement('url');
      url.appendChild(document.createTextNode(t.rest(`assets/${assetIds[2]}`)));
      parents.appendChild(url);
      const changed = await putXml(path, new XMLSerializer().serializeToString(document as never)).expect(
        200,
      );
      expect(texts(parseXml(changed.text), '/asset/parents/url')).toEqual([t.rest(`assets/${assetIds[2]}`)]);
    });

    it('refuses entity declarations and other root elements', async () => {
      const path = pathOf(t.rest(`assets/${assetIds[1]}`));
      const entity = await putXml(
        path,
        '<!DOCTYPE asset [<!ENTITY x "y">]><asset><archived>&x;</archived></asset>',
      ).expect(400);
      expect(entity.headers['content-type']).toMatch(/^text\/plain/);
      await putXml(path, '<createAsset/>').expect(400);
    });
  });

  describe('negotiation', () => {
    const get = (path: string, accept: string): Test =>
      t.http.get(path).auth(t.adminToken, { type: 'bearer' }).set('Accept', accept);

    it.each([
      ['application/json', /^application\/json/],
      ['application/xml;q=0.5, application/json', /^application\/json/],
      ['application/json;q=0.5, text/xml', /^application\/xml/],
      ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', /^application\/xml/],
    ])('Accept %p answers %p, with Vary: Accept', async (accept, type) => {
      const response = await get('/rest', accept).expect(200);
      expect(response.headers['content-type']).toMatch(type);
      expect(response.headers.vary).toMatch(/Accept/i);
    });

    it.each(['text/html', 'image/*', 'application/json;q=0, application/xml;q=0'])(
      'Accept %p is 406 with a text/plain message',
      async (accept) => {
        const response = await get(`/rest/assets/${assetIds[0]}`, accept).expect(406);
        expect(response.headers['content-type']).toMatch(/^text\/plain/);
        expect(response.text).toBe('this resource is available as application/json or application/xml');
        expect(response.headers.vary).toMatch(/Accept/i);
      },
    );

    it('asks who is calling (401) before what they accept (406), and refuses a write before it happens', async () => {
      await t.http.get(`/rest/assets/${assetIds[0]}`).set('Accept', 'text/html').expect(401);
      const before = await t.http
        .get('/rest/asset-search')
        .auth(t.adminToken, { type: 'bearer' })
        .query({ unsubmitted: 'true', pageSize: 1000 })
        .expect(200);
      const refused = await t.http
        .post('/rest/assets')
        .auth(t.adminToken, { type: 'bearer' })
        .set('Accept', 'text/html')
        .send({ accessLevels: [{ id: 1 }] })
        .expect(406);
      expect(refused.headers.location).toBeUndefined();
      const after = await t.http
        .get('/rest/asset-search')
        .auth(t.adminToken, { type: 'bearer' })
        .query({ unsubmitted: 'true', pageSize: 1000 })
        .expect(200);
      expect(after.body).toEqual(before.body);
    });

    it('keeps errors text/plain whatever the Accept', async () => {
      const response = await get('/rest/assets/999999', 'application/xml').expect(404);
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
    });

    it('keeps OAuth JSON and 204s empty', async () => {
      const token = await t.http
        .post('/oauth/token')
        .set('Accept', 'application/xml')
        .type('form')
        .send({ grant_type: 'client_credentials', client_id: t.clientId, client_secret: t.clientSecret })
        .expect(200);
      expect(token.headers['content-type']).toMatch(/^application\/json/);
      const deleted = await t.http
        .delete(`/rest/assets/${assetIds[4]}`)
        .auth(t.adminToken, { type: 'bearer' })
        .expect(204);
      expect(deleted.text).toBe('');
      assetIds.pop();
    });

    it('lists application/xml in the OpenAPI document for negotiated responses only', async () => {
      type Operation = { responses: Record<string, { content?: Record<string, unknown> }> };
      const document = (await get('/docs/openapi.json', 'application/json').expect(200)).body as {
        paths: Record<string, Record<string, Operation>>;
      };
      const types = (path: string, method: string, status = '200') =>
        Object.keys(document.paths[path][method].responses[status]?.content ?? {}).sort();
      for (const [path, method, status] of [
        ['/rest', 'get', '200'],
        ['/rest/asset-search', 'get', '200'],
        ['/rest/assets/{id}', 'get', '200'],
        ['/rest/assets/{id}', 'put', '200'],
        ['/rest/assets', 'post', '201'],
        ['/rest/categories/{id}', 'get', '200'],
        ['/rest/attributes', 'get', '200'],
        ['/rest/users/{ownerId}/lightboxes', 'get', '200'],
      ]) {
        expect([path, method, types(path, method, status)]).toEqual([
          path,
          method,
          ['application/json', 'application/xml'],
        ]);
      }
      expect(types('/oauth/token', 'post')).not.toContain('application/xml');
      expect(types('/rest/assets/{id}/content', 'get')).not.toContain('application/xml');
    });
  });
});
