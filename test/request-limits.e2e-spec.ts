import { gzipSync } from 'node:zlib';
import type { Response } from 'supertest';
import { insertAssets } from './helpers/fixtures';
import { TestApp, TestUser } from './helpers/test-app';

/**
 * Issue 36, point 1: a body's shape is bounded before any DTO work (DAM_BODY_MAX_*). Each hostile body is
 * sent together with a `/health/live`: the health answer comes back and the hostile one is refused
 * with 413 and a plain-text reason (before the fix: seconds of CPU, then 201/404, or a 500).
 */
describe('request body limits', () => {
  let t: TestApp;
  let user: TestUser;
  let assetId: number;

  beforeAll(async () => {
    t = await TestApp.start();
    user = await t.createUser();
    [assetId] = await insertAssets(t, [{ accessLevelIds: [] }]);
  });

  afterAll(async () => {
    await t?.close();
  });

  const lightboxes = () => `/rest/users/${user.id}/lightboxes`;

  /** The hostile request and a `/health/live` at once; the health answer must be 200. */
  async function alongsideHealth(hostile: Promise<Response>): Promise<Response> {
    const [answer, health] = await Promise.all([hostile, t.http.get('/health/live')]);
    expect(health.status).toBe(200);
    return answer;
  }

  function expectRefused(response: Response, status: number, message: RegExp): void {
    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toMatch(/^text\/plain; charset=utf-8/);
    expect(response.text).toMatch(message);
  }

  function postJson(path: string, body: string, token = user.token) {
    return t.http.post(path).auth(token, { type: 'bearer' }).type('json').send(body);
  }

  function putJson(path: string, body: string) {
    return t.http.put(path).auth(t.adminToken, { type: 'bearer' }).type('json').send(body);
  }

  describe('JSON', () => {
    it('refuses an object of 80,000 keys (1 MB) on POST lightboxes with 413', async () => {
      const answer = await alongsideHealth(postJson(lightboxes(), manyKeys(80_000)));
      expectRefused(answer, 413, /^an object of the JSON request body has more than 1000 keys$/);
      const list = await t.http.get(lightboxes()).auth(user.token, { type: 'bearer' }).expect(200);
      expect(JSON.stringify(list.body)).not.toContain('k79999');
    });

    it('refuses 80,000 keys inside attributes[] on PUT /rest/assets/{id} with 413', async () => {
      const body = `{"attributes":[{"id":1,"value":"v",${keyList(80_000)}}]}`;
      const answer = await alongsideHealth(putJson(`/rest/assets/${assetId}`, body));
      expectRefused(answer, 413, /^an object of the JSON request body has more than 1000 keys$/);
    });

    it('refuses 400,000 levels of nesting with 413, not 500', async () => {
      const body = `{"name":"deep","description":${'['.repeat(400_000)}${']'.repeat(400_000)}}`;
      const answer = await alongsideHealth(postJson(lightboxes(), body));
      expectRefused(answer, 413, /^the JSON request body nests objects and arrays deeper than 32 levels$/);
      const objects = `{"attributes":${'{"a":'.repeat(150_000)}1${'}'.repeat(150_000)}}`;
      const asset = await alongsideHealth(putJson(`/rest/assets/${assetId}`, objects));
      expectRefused(asset, 413, /deeper than 32 levels$/);
    });

    it('refuses an array of more than 10,000 items with 413', async () => {
      const body = `{"attributes":[${Array.from({ length: 10_001 }, () => '1').join(',')}]}`;
      const answer = await alongsideHealth(putJson(`/rest/assets/${assetId}`, body));
      expectRefused(answer, 413, /^an array of the JSON request body has more than 10000 items$/);
    });

    it('refuses more than 50,000 keys in the whole body with 413', async () => {
      const items = Array.from({ length: 9_000 }, (_, i) => `{"id":${i},"value":"v","x":1}`);
      const answer = await alongsideHealth(
        putJson(`/rest/assets/${assetId}`, `{"attributes":[${items.join(',')}],"more":[${items.join(',')}]}`),
      );
      expectRefused(answer, 413, /^the JSON request body has more than 50000 keys$/);
    });

    it('measures a gzip-encoded body as it inflates: refused past a limit, parsed within them', async () => {
      const hostile = await alongsideHealth(
        t.http
          .post(lightboxes())
          .auth(user.token, { type: 'bearer' })
          .set('Content-Type', 'application/json')
          .set('Content-Encoding', 'gzip')
          .serialize(asSent)
          .send(gzipSync(manyKeys(80_000))),
      );
      expectRefused(hostile, 413, /^an object of the JSON request body has more than 1000 keys$/);
      const created = await t.http
        .post(lightboxes())
        .auth(user.token, { type: 'bearer' })
        .set('Content-Type', 'application/json; charset=utf-8')
        .set('Content-Encoding', 'gzip')
        .serialize(asSent)
        .send(gzipSync(JSON.stringify({ name: 'gzipped' })));
      expect(created.status).toBe(201);
      expect(created.body.name).toBe('gzipped');
    });

    it('counts keys and brackets outside strings only: a body within the limits still works', async () => {
      const description = `${'{"k":['.repeat(100)} \\" , : { [`;
      const created = await postJson(lightboxes(), JSON.stringify({ name: 'within limits', description }));
      expect(created.status).toBe(201);
      expect(created.body.description).toBe(description);
    });
  });

  describe('XML', () => {
    const putXml = (body: string) =>
      t.http
        .put(`/rest/assets/${assetId}`)
        .auth(t.adminToken, { type: 'bearer' })
        .set('Content-Type', 'application/xml')
        .send(body);

    it('refuses elements nested deeper than the limit with 413', async () => {
      const body = `<asset>${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}</asset>`;
      const answer = await alongsideHealth(putXml(body));
      expectRefused(answer, 413, /^the XML request body nests elements deeper than 33$/);
    });

    it('refuses an element of more than 10,000 children, or more than 50,000 elements, with 413', async () => {
      const wide = `<asset>${Array.from({ length: 10_001 }, (_, i) => `<k${i}/>`).join('')}</asset>`;
      expectRefused(
        await alongsideHealth(putXml(wide)),
        413,
        /^an element of the XML request body has more than 10000 children$/,
      );
      const groups = Array.from({ length: 10_000 }, () => '<g><a/><b/><c/><d/></g>').join('');
      expectRefused(
        await alongsideHealth(putXml(`<asset>${groups}</asset>`)),
        413,
        /^the XML request body has more than 50000 elements$/,
      );
    });
  });

  describe('forms', () => {
    const tokenForm = (extra: number) => {
      const form = new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: t.clientId,
        client_secret: t.clientSecret,
      });
      for (let i = 0; i < extra; i++) form.append(`p${i}`, 'x');
      return t.http.post('/oauth/token').type('form').send(form.toString());
    };

    it('refuses a token request of more than 1000 parameters with 413, not 500', async () => {
      const answer = await alongsideHealth(tokenForm(1001));
      expectRefused(answer, 413, /^the form request body has too many parameters$/);
    });

    it('holds /oauth/ bodies to DAM_TOKEN_BODY_MAX_KEYS (32) parameters or keys', async () => {
      expectRefused(await tokenForm(30), 413, /too many parameters/);
      const json = {
        grant_type: 'client_credentials',
        client_id: t.clientId,
        client_secret: t.clientSecret,
      } as Record<string, string>;
      for (let i = 0; i < 30; i++) json[`p${i}`] = 'x';
      const answer = await t.http.post('/oauth/token').type('json').send(JSON.stringify(json));
      expectRefused(answer, 413, /^the JSON request body has more than 32 keys$/);
      await tokenForm(20).expect(200);
    });

    it('holds /oauth/ bodies to 64 KiB', async () => {
      const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: t.clientId });
      form.append('client_secret', 'x'.repeat(70_000));
      const answer = await t.http.post('/oauth/token').type('form').send(form.toString());
      expectRefused(answer, 413, /^the request body is larger than the limit of 65536 bytes$/);
    });

    it('refuses a form of more than DAM_BODY_MAX_OBJECT_KEYS parameters elsewhere with 413', async () => {
      const form = Array.from({ length: 1001 }, (_, i) => `p${i}=x`).join('&');
      const answer = await t.http
        .post(lightboxes())
        .auth(user.token, { type: 'bearer' })
        .type('form')
        .send(form);
      expectRefused(answer, 413, /too many parameters/);
    });
  });
});

/** Sends a Buffer as it is (superagent would JSON-encode it under a JSON content type). */
function asSent(body: unknown): string {
  return body as string;
}

function keyList(count: number): string {
  return Array.from({ length: count }, (_, i) => `"k${i}":1`).join(',');
}

function manyKeys(count: number): string {
  return `{"name":"many keys",${keyList(count)}}`;
}
