import { TestApp } from './helpers/test-app';

/** Keys the root resource may carry (DESIGN.md §3); each area registers its own when it lands. */
const ROOT_KEYS = [
  'accessLevelsUrl',
  'accessLevelSearchUrl',
  'assetsUrl',
  'assetSearchUrl',
  'assetTypesUrl',
  'attributesUrl',
  'authenticatedUserUrl',
  'categoriesUrl',
  'categorySearchUrl',
  'checkoutUrl',
  'displayAttributeGroupUrl',
  'embeddedDataMappingsUrl',
  'keywordsUrl',
  'lightboxesUrl',
  'listAttributeValuesUrl',
  'pendingUploadApprovalsUrl',
  'pendingEditApprovalsUrl',
  'publishingActionsUrl',
  'signingUrl',
  'tempChunkedFilesUrl',
  'usersUrl',
  'userSearchUrl',
  'groupsUrl',
];

function expectPlainText(response: { headers: Record<string, string>; text: string }): void {
  expect(response.headers['content-type']).toMatch(/^text\/plain; charset=utf-8/);
  expect(response.text.length).toBeGreaterThan(0);
  expect(response.text).not.toMatch(/\n/);
}

describe('root resource and HTTP conventions', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start({ env: { DAM_MAX_JSON_BODY_BYTES: '2048' } });
  });

  afterAll(async () => {
    await t?.close();
  });

  describe('GET /rest', () => {
    it.each(['/rest', '/rest/'])('%s lists absolute URLs built from the request host', async (path) => {
      const response = await t.http.get(path).auth(t.adminToken, { type: 'bearer' }).expect(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(typeof response.body.api_name).toBe('string');
      const links = response.body.api_version_1_3 as Record<string, string>;
      expect(links).toMatchObject({
        usersUrl: `${t.baseUrl}/rest/users`,
        userSearchUrl: `${t.baseUrl}/rest/user-search`,
        authenticatedUserUrl: `${t.baseUrl}/rest/authenticated-user`,
      });
      for (const [key, url] of Object.entries(links)) {
        expect(ROOT_KEYS).toContain(key);
        expect(url.startsWith(`${t.baseUrl}/rest/`)).toBe(true);
      }
    });

    it('follows the Host header the client used (one of its names: test/trusted-origin covers the rule)', async () => {
      const response = await t.http
        .get('/rest')
        .set('Host', 'localhost:8443')
        .auth(t.adminToken, { type: 'bearer' })
        .expect(200);
      expect(response.body.api_version_1_3.usersUrl).toBe('http://localhost:8443/rest/users');
    });

    it('refuses a Host header that is not a plain host name (400)', async () => {
      const response = await t.http
        .get('/rest')
        .set('Host', 'evil.example/<script>')
        .auth(t.adminToken, { type: 'bearer' })
        .expect(400);
      expectPlainText(response);
    });

    it('ignores X-Forwarded-* headers unless DAM_TRUST_PROXY is set', async () => {
      const response = await t.http
        .get('/rest')
        .set('X-Forwarded-Host', 'evil.example')
        .set('X-Forwarded-Proto', 'https')
        .auth(t.adminToken, { type: 'bearer' })
        .expect(200);
      expect(response.body.api_version_1_3.usersUrl).toBe(`${t.baseUrl}/rest/users`);
    });

    it('the URLs it lists answer', async () => {
      const root = await t.http.get('/rest').auth(t.adminToken, { type: 'bearer' }).expect(200);
      const usersUrl = new URL(root.body.api_version_1_3.usersUrl as string);
      await t.http.get(usersUrl.pathname).auth(t.adminToken, { type: 'bearer' }).expect(200);
    });
  });

  describe('authentication', () => {
    it('answers 401 with WWW-Authenticate: Bearer and a plain-text body without a token', async () => {
      const response = await t.http.get('/rest').expect(401);
      expect(response.headers['www-authenticate']).toBe('Bearer');
      expectPlainText(response);
    });

    it('answers 401 for a malformed Authorization header', async () => {
      const response = await t.http.get('/rest').set('Authorization', 'Token abc').expect(401);
      expect(response.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
      expectPlainText(response);
    });

    it('without trusted networks, a tokenless request from localhost is still 401', async () => {
      await t.http.get('/rest/authenticated-user').expect(401);
    });
  });

  describe('errors', () => {
    it('answers 404 in plain text for an unknown route', async () => {
      const response = await t.http
        .get('/rest/no-such-thing')
        .auth(t.adminToken, { type: 'bearer' })
        .expect(404);
      expectPlainText(response);
      expect(response.text).toContain('/rest/no-such-thing');
    });

    it('answers 405 in plain text, with Allow, for an unknown method on a known path (issue 16)', async () => {
      const response = await t.http.patch('/rest/users').auth(t.adminToken, { type: 'bearer' }).expect(405);
      expect(response.headers['allow']).toBe('DELETE, GET, HEAD, OPTIONS, POST');
      expectPlainText(response);
    });

    it('answers 413 in plain text when a JSON body passes DAM_MAX_JSON_BODY_BYTES', async () => {
      const user = await t.createUser();
      const response = await t.http
        .put(`/rest/users/${user.id}`)
        .auth(t.adminToken, { type: 'bearer' })
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ forename: 'x'.repeat(4096) }))
        .expect(413);
      expectPlainText(response);
    });

    it('answers 413 for an oversized form body too', async () => {
      const response = await t.http
        .post('/oauth/token')
        .type('form')
        .send({ grant_type: 'client_credentials', padding: 'x'.repeat(4096) })
        .expect(413);
      expectPlainText(response);
    });

    it('accepts a JSON body just under the limit', async () => {
      const user = await t.createUser();
      const forename = 'y'.repeat(200);
      const response = await t.http
        .put(`/rest/users/${user.id}`)
        .auth(t.adminToken, { type: 'bearer' })
        .send({ forename })
        .expect(200);
      expect(response.body.forename).toBe(forename);
    });

    it('answers 400 in plain text for malformed JSON', async () => {
      const user = await t.createUser();
      const response = await t.http
        .put(`/rest/users/${user.id}`)
        .auth(t.adminToken, { type: 'bearer' })
        .set('Content-Type', 'application/json')
        .send('{"forename": ')
        .expect(400);
      expectPlainText(response);
      expect(response.text).not.toMatch(/SyntaxError|at JSON\.parse/);
    });
  });

  describe('public endpoints', () => {
    it('/health answers 200 without a token', async () => {
      const response = await t.http.get('/health').expect(200);
      expect(response.body.status).toBe('ok');
    });

    it('/docs serves the Swagger UI', async () => {
      const response = await t.http.get('/docs').redirects(2).expect(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.text).toMatch(/swagger/i);
    });

    it('/docs/openapi.json serves the OpenAPI document', async () => {
      const response = await t.http.get('/docs/openapi.json').expect(200);
      expect(response.body.openapi).toMatch(/^3\./);
      expect(Object.keys(response.body.paths as object)).toEqual(
        expect.arrayContaining(['/rest', '/rest/users', '/rest/users/{id}', '/oauth/token', '/health']),
      );
    });
  });

  describe('X-Request-Id', () => {
    it('echoes the id the client sent', async () => {
      const response = await t.http.get('/health').set('X-Request-Id', 'client-id.42_x').expect(200);
      expect(response.headers['x-request-id']).toBe('client-id.42_x');
    });

    it('generates one when absent, different per request', async () => {
      const first = await t.http.get('/health').expect(200);
      const second = await t.http.get('/health').expect(200);
      expect(first.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    });

    it('replaces an id with unsafe characters', async () => {
      const response = await t.http.get('/health').set('X-Request-Id', 'bad id; drop').expect(200);
      expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('is set on error responses too', async () => {
      const response = await t.http.get('/rest').set('X-Request-Id', 'err-1').expect(401);
      expect(response.headers['x-request-id']).toBe('err-1');
    });
  });
});

describe('DAM_PUBLIC_URL', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start({ env: { DAM_PUBLIC_URL: 'https://dam.example.com/base' } });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('is the origin of every URL, whatever the request host', async () => {
    const response = await t.http
      .get('/rest')
      .set('Host', 'other.example')
      .auth(t.adminToken, { type: 'bearer' });
    expect(response.status).toBe(200);
    const links = response.body.api_version_1_3 as Record<string, string>;
    expect(links.usersUrl).toBe('https://dam.example.com/base/rest/users');
    for (const url of Object.values(links))
      expect(url.startsWith('https://dam.example.com/base/rest/')).toBe(true);
  });

  it('is used for Location headers', async () => {
    const response = await t.http
      .post('/rest/users')
      .query({ username: 'public-url-user' })
      .auth(t.adminToken, { type: 'bearer' })
      .expect(201);
    expect(response.headers.location).toMatch(/^https:\/\/dam\.example\.com\/base\/rest\/users\/\d+$/);
    expect(response.body.url).toBe(response.headers.location);
  });
});

describe('DAM_TRUSTED_NETWORKS', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start({ env: { DAM_TRUSTED_NETWORKS: '127.0.0.1/32' } });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('lets a tokenless request from a trusted address act as the application user', async () => {
    const response = await t.http.get('/rest/authenticated-user').expect(200);
    expect(response.body.username).toBe('application');
    expect(response.body.isAdmin).toBe(true);
  });

  it('still refuses an invalid token from a trusted address', async () => {
    await t.http
      .get('/rest/authenticated-user')
      .auth('not-a-valid-token-at-all', { type: 'bearer' })
      .expect(401);
  });

  it('a token still decides who the caller is', async () => {
    const user = await t.createUser();
    const response = await t.http
      .get('/rest/authenticated-user')
      .auth(user.token, { type: 'bearer' })
      .expect(200);
    expect(response.body.username).toBe(user.username);
  });
});

describe('DAM_TRUST_PROXY', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start({
      env: {
        DAM_TRUST_PROXY: 'true',
        DAM_TRUSTED_NETWORKS: '10.0.0.0/8',
        DAM_ALLOWED_HOSTS: '127.0.0.1,dam.example.org',
      },
    });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('builds URLs from X-Forwarded-Proto and X-Forwarded-Host', async () => {
    const response = await t.http
      .get('/rest')
      .set('X-Forwarded-Host', 'dam.example.org, proxy.internal')
      .set('X-Forwarded-Proto', 'https')
      .auth(t.adminToken, { type: 'bearer' })
      .expect(200);
    expect(response.body.api_version_1_3.usersUrl).toBe('https://dam.example.org/rest/users');
  });

  it('does not let X-Forwarded-For claim a trusted network', async () => {
    await t.http.get('/rest/authenticated-user').set('X-Forwarded-For', '10.1.2.3').expect(401);
  });
});
