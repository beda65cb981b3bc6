import { grant, insertAccessLevel, insertCategory } from './helpers/asset-permission-fixtures';
import { bearerRequests, pathOf } from './helpers/bearer-requests';
import { contentRequests, png } from './helpers/content-fixtures';
import { fillPath, servedRoutes } from './helpers/route-inventory';
import { TestApp } from './helpers/test-app';

jest.setTimeout(120_000);

const TITLE = '1';
const ASSET_ETAG = /^"(\d+)-[A-Za-z0-9_-]+"$/;
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];

interface RouteLayer {
  route?: { path: string; methods: Record<string, boolean> };
}

/**
 * The methods the app's routes answer at `path`: a second, independent reading of the Express route table
 * (routes for every method are middleware, such as the request logger's, and do not count).
 */
function methodsAt(t: TestApp, path: string): Set<string> {
  const express = t.app.getHttpAdapter().getInstance() as { router: { stack: RouteLayer[] } };
  const methods = new Set<string>();
  for (const { route } of express.router.stack) {
    if (route === undefined || Object.keys(route.methods).length > 20) continue;
    const pattern = route.path
      .split('/')
      .map((part) =>
        part.startsWith(':') ? '[^/]+' : part.startsWith('*') ? '.+' : part.replace(/[.]/g, '\\.'),
      )
      .join('/');
    if (!new RegExp(`^${pattern}$`).test(path)) continue;
    for (const method of Object.keys(route.methods)) methods.add(method.toUpperCase());
  }
  return methods;
}

describe('HTTP semantics', () => {
  let t: TestApp;
  const api = bearerRequests(() => t);
  const content = contentRequests(() => t);
  let level: number;

  beforeAll(async () => {
    t = await TestApp.start();
    level = await insertAccessLevel(t);
  });

  afterAll(async () => {
    await t?.close();
  });

  describe('405 with Allow', () => {
    it('every served path answers a method it does not serve with 405 and the methods it does', async () => {
      const routes = servedRoutes(t).filter((route) => !route.path.includes('{'));
      const paths = [...new Set(routes.map((route) => fillPath(route.path)))];
      expect(paths.length).toBeGreaterThan(30);
      const failures: string[] = [];
      for (const path of paths) {
        const served = methodsAt(t, path);
        const method = METHODS.find((candidate) => !served.has(candidate));
        if (method === undefined) continue;
        const response = await t.http[method.toLowerCase() as 'get'](path);
        const expected = [...new Set([...served, ...(served.has('GET') ? ['HEAD'] : []), 'OPTIONS'])]
          .sort()
          .join(', ');
        if (response.status !== 405 || response.headers['allow'] !== expected) {
          failures.push(`${method} ${path}: ${response.status} Allow: ${response.headers['allow']}`);
        }
      }
      expect(failures).toEqual([]);
    });

    it('answers in plain text, before authentication, and 404 stays for unknown paths', async () => {
      const response = await t.http.patch('/rest/assets/1').expect(405);
      expect(response.headers['allow']).toBe('DELETE, GET, HEAD, OPTIONS, PUT');
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
      expect(response.text).toBe(
        'PATCH is not allowed at /rest/assets/1; allowed: DELETE, GET, HEAD, OPTIONS, PUT',
      );
      await t.http.get('/rest/no-such-thing').expect(404);
      await t.http.patch('/rest/no-such-thing').expect(404);
    });

    it('OPTIONS on a known path lists the methods (204), on an unknown one is 404', async () => {
      const response = await t.http.options('/rest/categories').expect(204);
      expect(response.headers['allow']).toBe('GET, HEAD, OPTIONS, POST');
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
      await t.http.options('/rest/no-such-thing').expect(404);
    });
  });

  describe('415 for a body no parser reads', () => {
    it.each([
      ['POST', '/rest/categories', 'text/csv', 'name\nx'],
      ['PUT', '/rest/assets/1', 'text/csv', 'a,b'],
      ['POST', '/rest/assets', 'text/plain', '{"accessLevels":[]}'],
      ['POST', '/rest/access-levels', 'application/yaml', 'name: x'],
    ])('%s %s with %s is 415 in plain text', async (method, path, type, body) => {
      const response = await t.http[method.toLowerCase() as 'post'](path)
        .auth(t.adminToken, { type: 'bearer' })
        .set('Content-Type', type)
        .send(body)
        .expect(415);
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
      expect(response.text).toBe(
        `send the request body as application/json, application/xml or application/x-www-form-urlencoded, not ${type}`,
      );
    });

    it('POST /oauth/token with text/csv is 415 too', async () => {
      await t.http.post('/oauth/token').set('Content-Type', 'text/csv').send('grant_type,x').expect(415);
    });

    it('JSON, XML, forms and empty bodies still pass; uploads still stream octets', async () => {
      const asset = await content.newAsset(level);
      await api.put(asset, t.adminToken, { attributes: [{ id: TITLE, value: 'json' }] }).expect(200);
      await t.http
        .post(`${asset}/approve`)
        .auth(t.adminToken, { type: 'bearer' })
        .set('Content-Length', '0')
        .expect((response) => expect(response.status).not.toBe(415));
      await content.upload(asset, t.adminToken, Buffer.from('octets'), 'a.txt').expect(200);
    });
  });

  describe('ETag and conditional requests', () => {
    let editor: { token: string };

    beforeAll(async () => {
      const user = await t.createUser();
      await grant(t, user.id, [level], ['view', 'edit', 'upload']);
      editor = user;
    });

    const etagOf = async (path: string, accept = 'application/json'): Promise<string> => {
      const response = await api.get(path, t.adminToken).set('Accept', accept).expect(200);
      const etag = response.headers['etag'] as string;
      expect(etag).toBeDefined();
      return etag;
    };

    it('GET of an asset has a strong ETag; If-None-Match answers 304 without a body', async () => {
      const asset = await content.newAsset(level);
      const first = await api.get(asset, t.adminToken).expect(200);
      const etag = first.headers['etag'] as string;
      expect(etag).toMatch(ASSET_ETAG);
      const again = await api.get(asset, t.adminToken).set('If-None-Match', etag).expect(304);
      expect(again.text).toBe('');
      expect(again.headers['etag']).toBe(etag);
      await api.get(asset, t.adminToken).set('If-None-Match', '"other"').expect(200);
      await t.http.head(asset).auth(t.adminToken, { type: 'bearer' }).set('If-None-Match', etag).expect(304);
      // The XML representation is other bytes: another tag, of the same version.
      const xml = await etagOf(asset, 'application/xml');
      expect(xml).not.toBe(etag);
      expect(ASSET_ETAG.exec(xml)?.[1]).toBe(ASSET_ETAG.exec(etag)?.[1]);
    });

    it('If-None-Match sent through fetch (which adds Cache-Control: no-cache) still answers 304', async () => {
      const asset = await content.newAsset(level);
      const etag = (await api.get(asset, t.adminToken).expect(200)).headers['etag'] as string;
      const headers = { Authorization: `Bearer ${t.adminToken}`, 'If-None-Match': etag };
      const fetched = await fetch(`${t.baseUrl}${asset}`, { headers });
      expect([fetched.status, await fetched.text()]).toEqual([304, '']);
      await api
        .get(asset, t.adminToken)
        .set('If-None-Match', etag)
        .set('Cache-Control', 'no-cache')
        .expect(304);
      await api
        .get(asset, t.adminToken)
        .set('If-None-Match', '"other"')
        .set('Cache-Control', 'no-cache')
        .expect(200);
    });

    it('the asset ETag changes with metadata, category, content and approval changes', async () => {
      const category = await insertCategory(t);
      const asset = await content.newAsset(level);
      const seen = [await etagOf(asset)];
      const changed = async () => {
        const etag = await etagOf(asset);
        expect(seen).not.toContain(etag);
        seen.push(etag);
      };
      await api.put(asset, t.adminToken, { attributes: [{ id: TITLE, value: 'new title' }] }).expect(200);
      await changed();
      await api.put(asset, t.adminToken, { categories: [{ id: category }] }).expect(200);
      await changed();
      await content.upload(asset, t.adminToken, await png(4, 4), 'same.png').expect(200);
      await changed();
      // The same name and size again: only the version tells the new file apart.
      await content.upload(asset, t.adminToken, await png(4, 4), 'same.png').expect(200);
      await changed();

      const moderated = await insertAccessLevel(t);
      const contributor = await t.createUser();
      await grant(t, contributor.id, [moderated], ['view', 'uploadWithApproval']);
      const created = await api
        .post('/rest/assets', contributor.token, { accessLevels: [{ id: moderated }], submit: true })
        .expect(201);
      const pending = pathOf(created.body.url as string);
      const before = await etagOf(pending);
      await api.post(`${pending}/approve`, t.adminToken, {}).expect(200);
      expect(await etagOf(pending)).not.toBe(before);
    });

    it('If-Match on PUT and DELETE of an asset: a stale tag is 412, the current one passes', async () => {
      const asset = await content.newAsset(level);
      const stale = await etagOf(asset);
      await api.put(asset, editor.token, { attributes: [{ id: TITLE, value: 'first' }] }).expect(200);
      const current = await etagOf(asset);
      const refused = await api
        .put(asset, editor.token, { attributes: [{ id: TITLE, value: 'lost update' }] })
        .set('If-Match', stale)
        .expect(412);
      expect(refused.headers['content-type']).toMatch(/^text\/plain/);
      expect(refused.text).toBe('the asset has changed since the version in If-Match: read it again');
      await api.put(asset, editor.token, {}).set('If-Match', `W/${current}`).expect(412);
      // The XML tag of the current version matches too, and so does *.
      const xml = await etagOf(asset, 'application/xml');
      await api
        .put(asset, editor.token, { attributes: [{ id: TITLE, value: 'second' }] })
        .set('If-Match', `"nope", ${xml}`)
        .expect(200);
      const body = (await api.get(asset, t.adminToken).expect(200)).body as {
        attributes: Array<{ id: string; value: string }>;
      };
      expect(body.attributes.find((attribute) => attribute.id === TITLE)?.value).toBe('second');
      await api.delete(asset, t.adminToken).set('If-Match', current).expect(412);
      await api.get(asset, t.adminToken).expect(200);
      await api
        .delete(asset, t.adminToken)
        .set('If-Match', await etagOf(asset))
        .expect(204);
      const other = await content.newAsset(level);
      await api.delete(other, t.adminToken).set('If-Match', '*').expect(204);
    });

    it.each(['/rest/attributes', '/rest/categories', '/rest/access-levels'])(
      'GET %s and of one item carry an ETag, and If-None-Match answers 304',
      async (collection) => {
        const list = await api.get(collection, t.adminToken).expect(200);
        const listTag = list.headers['etag'] as string;
        expect(listTag).toMatch(/^"[A-Za-z0-9_-]+"$/);
        await api.get(collection, t.adminToken).set('If-None-Match', listTag).expect(304);
        const item = pathOf((list.body as string[])[0]);
        const tag = await etagOf(item);
        await api.get(item, t.adminToken).set('If-None-Match', tag).expect(304);
      },
    );

    it('the ETag of a category changes when it changes', async () => {
      const category = `/rest/categories/${await insertCategory(t)}`;
      const before = await etagOf(category);
      await api.put(category, t.adminToken, { name: 'renamed' }).expect(200);
      const after = await etagOf(category);
      expect(after).not.toBe(before);
      await api.get(category, t.adminToken).set('If-None-Match', before).expect(200);
    });
  });

  describe('security headers', () => {
    it("API answers carry helmet's headers", async () => {
      const response = await t.http.get('/rest').auth(t.adminToken, { type: 'bearer' }).expect(200);
      expect(response.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'SAMEORIGIN',
        'referrer-policy': 'no-referrer',
        'cross-origin-resource-policy': 'cross-origin',
      });
      expect(response.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    });

    it('Swagger UI keeps working: its scripts are same-origin files, no upgrade-insecure-requests', async () => {
      const page = await t.http.get('/docs/').expect(200);
      const csp = page.headers['content-security-policy'] as string;
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('upgrade-insecure-requests');
      const scripts = [...page.text.matchAll(/<script([^>]*)>([^<]*)<\/script>/g)];
      expect(scripts.length).toBeGreaterThan(0);
      for (const [, attributes, inline] of scripts) {
        expect(inline.trim()).toBe('');
        const src = /src="([^"]+)"/.exec(attributes)?.[1] as string;
        expect(src).not.toMatch(/^[a-z]+:|^\/\//i);
        await t.http.get(new URL(src, `${t.baseUrl}/docs/`).pathname).expect(200);
      }
    });
  });

  describe('stored files', () => {
    it.each([
      ['page.html', Buffer.from('<script>alert(1)</script>'), 'attachment'],
      [
        'drawing.svg',
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        'attachment',
      ],
      ['notes.txt', Buffer.from('plain'), 'attachment'],
    ])('%s downloads as %s, never sniffed', async (filename, bytes, disposition) => {
      const asset = await content.newAsset(level);
      await content.upload(asset, t.adminToken, bytes, filename).expect(200);
      await expectDownload(asset, filename, disposition);
    });

    it('a PNG is shown inline', async () => {
      const asset = await content.newAsset(level);
      await content.upload(asset, t.adminToken, await png(8, 8), 'pixel.png').expect(200);
      await expectDownload(asset, 'pixel.png', 'inline');
    });

    async function expectDownload(asset: string, filename: string, disposition: string): Promise<void> {
      const redirect = await api.get(`${asset}/content`, t.adminToken).redirects(0).expect(303);
      const url = redirect.headers.location as string;
      const response = await fetch(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-disposition')).toBe(`${disposition}; filename="${filename}"`);
      // The fs store's files are served by this app; an object store serves its own presigned URLs.
      if (url.startsWith(t.baseUrl) || new URL(url).pathname.startsWith('/files/')) {
        expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      }
    }
  });
});
