import { bearerRequests } from './helpers/bearer-requests';
import { contentRequests } from './helpers/content-fixtures';
import { Grants } from './helpers/grant-fixtures';
import { TestApp } from './helpers/test-app';

jest.setTimeout(120_000);

const ELSEWHERE = 'http://elsewhere.invalid';

/**
 * Every URL a client sends back (parents, assetTypeUrl, parent, url, accessLevelUrl, attributeUrl,
 * attributes, X-Copy-Temp-Chunked-File) must be one of ours: our origin and our path prefix. Another
 * is a 400 naming the field, and nothing is written.
 */
describe('URL references must be URLs of this service', () => {
  describe('without DAM_PUBLIC_URL (the origin of the request)', () => {
    let t: TestApp;
    let level: number;
    let asset: string;
    const { get, post, put } = bearerRequests(() => t);
    const { newAsset } = contentRequests(() => t);

    beforeAll(async () => {
      t = await TestApp.start();
      level = await new Grants(t).topLevel('Default');
      asset = await newAsset(level);
    });
    afterAll(() => t?.close());

    const refused = (field: string, url: string): string => `${field}: ${url} is not a URL of this service`;

    it('parents (asset PUT): 400 naming the field; own URLs work', async () => {
      const other = await newAsset(level);
      const foreign = `${ELSEWHERE}${other}`;
      const response = await put(asset, t.adminToken, { parents: [foreign] }).expect(400);
      expect(response.text).toBe(refused('parents', foreign));
      expect((await get(asset, t.adminToken).expect(200)).body.parents).toEqual([]);
      // Same host, other port: another origin too.
      const otherPort = `${t.baseUrl.replace(/:\d+$/, ':1')}${other}`;
      expect((await put(asset, t.adminToken, { parents: [otherPort] }).expect(400)).text).toBe(
        refused('parents', otherPort),
      );
      await put(asset, t.adminToken, { parents: [`${t.baseUrl}${other}`] }).expect(200);
      await put(asset, t.adminToken, { parents: [] }).expect(200);
    });

    it('assetTypeUrl (asset POST)', async () => {
      const foreign = `${ELSEWHERE}/rest/asset-types/1`;
      const response = await post('/rest/assets', t.adminToken, {
        accessLevels: [{ id: level }],
        assetTypeUrl: foreign,
      }).expect(400);
      expect(response.text).toBe(refused('assetTypeUrl', foreign));
      // Bare ids of access levels stay accepted, as before.
      await post('/rest/assets', t.adminToken, {
        accessLevels: [level],
        assetTypeUrl: `${t.baseUrl}/rest/asset-types/1`,
      }).expect(201);
    });

    it('parent (access levels, categories, keywords)', async () => {
      const levelParent = `${ELSEWHERE}/rest/access-levels/${level}`;
      expect(
        (await post('/rest/access-levels', t.adminToken, { name: 'x', parent: levelParent }).expect(400))
          .text,
      ).toBe(refused('parent', levelParent));

      const category = await post('/rest/categories', t.adminToken, { name: 'Top' }).expect(201);
      const categoryParent = category.body.url.replace(t.baseUrl, ELSEWHERE);
      expect(
        (await post('/rest/categories', t.adminToken, { name: 'Sub', parent: categoryParent }).expect(400))
          .text,
      ).toBe(refused('parent', categoryParent));

      const keywordsAttribute = `${t.baseUrl}/rest/attributes/3`;
      const keyword = await post('/rest/keywords', t.adminToken, {
        attributeUrl: keywordsAttribute,
        name: 'Top',
      }).expect(201);
      const keywordParent = keyword.body.url.replace(t.baseUrl, ELSEWHERE);
      expect(
        (
          await post('/rest/keywords', t.adminToken, {
            attributeUrl: keywordsAttribute,
            name: 'Sub',
            parent: keywordParent,
          }).expect(400)
        ).text,
      ).toBe(refused('parent', keywordParent));
    });

    it('url (access levels bulk PUT, lightbox contents, sign-url)', async () => {
      const levelUrl = `${ELSEWHERE}/rest/access-levels/${level}`;
      expect(
        (await put('/rest/access-levels', t.adminToken, [{ url: levelUrl, name: 'x' }]).expect(400)).text,
      ).toBe(refused('url', levelUrl));

      const me = await get('/rest/authenticated-user', t.adminToken).expect(200);
      const lightbox = await post(`/rest/users/${me.body.id}/lightboxes`, t.adminToken, {
        name: 'Refs',
      }).expect(201);
      const contents = `${new URL(lightbox.headers.location as string).pathname}/contents`;
      const assetUrl = `${ELSEWHERE}${asset}`;
      expect((await post(contents, t.adminToken, { url: assetUrl }).expect(400)).text).toBe(
        refused('url', assetUrl),
      );
      await post(contents, t.adminToken, { url: `${t.baseUrl}${asset}` }).expect(201);

      const signMe = `${ELSEWHERE}/rest/authenticated-user`;
      expect(
        (await post('/rest/sign-url', t.adminToken, { url: signMe, expirySeconds: 60 }).expect(400)).text,
      ).toBe(refused('url', signMe));
    });

    it('accessLevelUrl (groups)', async () => {
      const foreign = `${ELSEWHERE}/rest/access-levels/${level}`;
      const response = await post('/rest/groups', t.adminToken, {
        name: 'Refs',
        accessLevelPermissions: [{ accessLevelUrl: foreign, permissions: ['view'] }],
      }).expect(400);
      expect(response.text).toBe(refused('accessLevelUrl', foreign));
    });

    it('attributeUrl (list values, keywords, embedded-data mappings) and attributes (display groups)', async () => {
      const foreign = `${ELSEWHERE}/rest/attributes/3`;
      expect(
        (
          await post('/rest/list-attribute-values', t.adminToken, {
            attributeUrl: foreign,
            value: 'x',
          }).expect(400)
        ).text,
      ).toBe(refused('attributeUrl', foreign));
      expect(
        (await post('/rest/keywords', t.adminToken, { attributeUrl: foreign, name: 'x' }).expect(400)).text,
      ).toBe(refused('attributeUrl', foreign));
      expect(
        (
          await post('/rest/embedded-data-mappings', t.adminToken, {
            type: 'EXIF',
            tagName: 'Artist',
            attributeUrl: foreign,
          }).expect(400)
        ).text,
      ).toBe(refused('attributeUrl', foreign));
      expect(
        (
          await post('/rest/display-attribute-groups', t.adminToken, {
            name: 'G',
            attributes: [foreign],
          }).expect(400)
        ).text,
      ).toBe(refused('attributes', foreign));
      // Bare ids stay accepted where they were.
      await post('/rest/display-attribute-groups', t.adminToken, {
        name: 'G',
        attributes: [{ id: 3 }],
      }).expect(201);
    });

    it('X-Copy-Temp-Chunked-File (asset content PUT)', async () => {
      const temp = await post('/rest/temp-chunked-files', t.adminToken, {}).expect(201);
      const foreign = (temp.headers.location as string).replace(t.baseUrl, ELSEWHERE);
      const response = await t.http
        .put(`${asset}/content`)
        .auth(t.adminToken, { type: 'bearer' })
        .set('X-Copy-Temp-Chunked-File', foreign)
        .set('Content-Type', 'application/octet-stream')
        .set('Content-Disposition', 'attachment; filename="a.bin"')
        .expect(400);
      expect(response.text).toBe(refused('X-Copy-Temp-Chunked-File', foreign));
    });
  });

  describe('with DAM_PUBLIC_URL and a path prefix', () => {
    const PUBLIC = 'https://dam.example.test/dam';
    let t: TestApp;
    let level: number;
    const { get, post, put } = bearerRequests(() => t);

    beforeAll(async () => {
      t = await TestApp.start({ env: { DAM_PUBLIC_URL: PUBLIC } });
      level = await new Grants(t).topLevel('Default');
    });
    afterAll(() => t?.close());

    it('accepts URLs with the public origin and prefix, refuses others, whatever the request origin', async () => {
      const created = await post('/rest/assets', t.adminToken, { accessLevels: [{ id: level }] }).expect(201);
      const parentCreated = await post('/rest/assets', t.adminToken, {
        accessLevels: [{ id: level }],
      }).expect(201);
      const parentUrl = parentCreated.headers.location as string;
      expect(parentUrl.startsWith(`${PUBLIC}/rest/assets/`)).toBe(true);
      const path = new URL(created.headers.location as string).pathname.replace(/^\/dam/, '');

      await put(path, t.adminToken, { parents: [parentUrl] }).expect(200);
      expect((await get(path, t.adminToken).expect(200)).body.parents).toEqual([parentUrl]);

      for (const wrong of [
        parentUrl.replace('/dam/rest', '/rest'),
        parentUrl.replace(PUBLIC, t.baseUrl),
        `${t.baseUrl}/dam/rest/assets/1`,
      ]) {
        expect((await put(path, t.adminToken, { parents: [wrong] }).expect(400)).text).toBe(
          `parents: ${wrong} is not a URL of this service`,
        );
      }
      expect((await get(path, t.adminToken).expect(200)).body.parents).toEqual([parentUrl]);
    });
  });
});
