import { bearerRequests } from './helpers/bearer-requests';
import { MATRIX } from './helpers/databases';
import { TestApp } from './helpers/test-app';
import { eventually, WebhookReceiver } from './helpers/webhook-receiver';

jest.setTimeout(120_000);

/**
 * Issue 36 point 4: one trusted origin. Without DAM_PUBLIC_URL a request must name one of the service's
 * hosts (DAM_ALLOWED_HOSTS, or localhost names and the address it listens on), else 400 before any
 * routing; what is read outside a request's answer (webhook payloads) carries the configured origin.
 */
describe(`trusted origin (${MATRIX})`, () => {
  const receivers: WebhookReceiver[] = [];

  afterAll(async () => {
    await Promise.all(receivers.map((receiver) => receiver.close()));
  });

  /** Registers a receiver for `category.created` and returns it. */
  async function hookedReceiver(t: TestApp): Promise<WebhookReceiver> {
    const receiver = await WebhookReceiver.start();
    receivers.push(receiver);
    await bearerRequests(() => t)
      .post('/rest/admin/webhooks', t.adminToken, { url: receiver.url, events: ['category.created'] })
      .expect(201);
    return receiver;
  }

  /** Creates a category through `t`'s own host and returns its Location and the webhook payload's data. */
  async function categoryAndPayload(
    t: TestApp,
    receiver: WebhookReceiver,
  ): Promise<{ location: string; data: Record<string, unknown> }> {
    const created = await bearerRequests(() => t)
      .post('/rest/categories', t.adminToken, { name: `origin-${Date.now()}` })
      .expect(201);
    const body = await eventually(() => receiver.received[0]?.body);
    return { location: created.headers.location as string, data: JSON.parse(body).data };
  }

  describe('by default (no DAM_PUBLIC_URL, no DAM_ALLOWED_HOSTS)', () => {
    let t: TestApp;
    const api = bearerRequests(() => t);

    beforeAll(async () => {
      t = await TestApp.start({
        env: { DAM_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', DAM_WEBHOOK_POLL_MS: '100' },
      });
    });

    afterAll(async () => {
      await t?.close();
    });

    it.each([
      ['GET', '/rest'],
      ['GET', '/rest/no-such-route'],
      ['GET', '/docs/openapi.json'],
      ['POST', '/oauth/token'],
      ['GET', '/files/anything?key=x'],
    ])('answers 400 in plain text to %s %s with a foreign Host, before any routing', async (method, path) => {
      const response = await t.http[method === 'GET' ? 'get' : 'post'](path)
        .set('Host', 'evil.example')
        .auth(t.adminToken, { type: 'bearer' })
        .expect(400);
      expect(response.headers['content-type']).toMatch(/^text\/plain; charset=utf-8/);
      expect(response.text).toBe('Host "evil.example" is not a name of this service');
      expect(response.headers.location).toBeUndefined();
    });

    it.each(['evil.example:8080', 'evil.example/<script>', 'localhost:99999', '127.0.0.2', '[::2]:80'])(
      'refuses Host %s',
      async (host) => {
        await api.get('/rest', t.adminToken).set('Host', host).expect(400);
      },
    );

    it('changes nothing for a refused request (a user is not created)', async () => {
      const username = `refused-${Date.now()}`;
      await api
        .post(`/rest/users?username=${username}`, t.adminToken, {})
        .set('Host', 'evil.example')
        .expect(400);
      await api.post(`/rest/users?username=${username}`, t.adminToken, {}).expect(201);
    });

    it.each(['localhost', 'localhost:9999', 'LOCALHOST:3000', '127.0.0.1:1234', '[::1]:3000'])(
      'accepts the localhost name %s on any port, and builds URLs from it',
      async (host) => {
        const response = await api.get('/rest', t.adminToken).set('Host', host).expect(200);
        const expected = `http://${host.toLowerCase()}/rest/users`;
        expect(response.body.api_version_1_3.usersUrl).toBe(expected);
      },
    );

    it('accepts the address the request arrived on (127.0.0.1 here; trusted-origin.spec covers others)', async () => {
      const response = await api.get('/rest', t.adminToken).expect(200);
      expect(response.body.api_version_1_3.usersUrl).toBe(`${t.baseUrl}/rest/users`);
    });

    it('leaves /health and /metrics open to any Host (they build no URL)', async () => {
      await t.http.get('/health/live').set('Host', 'evil.example').expect(200);
      await t.http
        .get('/health')
        .set('Host', '10.1.2.3:3000')
        .expect((response) => {
          expect([200, 503]).toContain(response.status);
        });
      await t.http.get('/metrics').set('Host', 'evil.example').expect(200);
    });

    it('judges Host, not X-Forwarded-Host, without DAM_TRUST_PROXY', async () => {
      const response = await api
        .get('/rest', t.adminToken)
        .set('X-Forwarded-Host', 'evil.example')
        .expect(200);
      expect(response.body.api_version_1_3.usersUrl).toBe(`${t.baseUrl}/rest/users`);
    });

    it('puts the configured origin (http://localhost:PORT) in webhook payloads, not the request host', async () => {
      const receiver = await hookedReceiver(t);
      const { location, data } = await categoryAndPayload(t, receiver);
      expect(location.startsWith(`${t.baseUrl}/rest/categories/`)).toBe(true);
      const configured = `http://localhost:${t.config.port}/rest`;
      expect(data.categoryUrl).toBe(location.replace(`${t.baseUrl}/rest`, configured));
      expect(data.actorUrl).toMatch(new RegExp(`^${configured}/users/\\d+$`));
    });
  });

  describe('DAM_ALLOWED_HOSTS', () => {
    let t: TestApp;
    const api = bearerRequests(() => t);

    beforeAll(async () => {
      t = await TestApp.start({
        env: {
          DAM_ALLOWED_HOSTS: 'dam.example.com, other.example:8443, 127.0.0.1',
          DAM_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
          DAM_WEBHOOK_POLL_MS: '100',
        },
      });
    });

    afterAll(async () => {
      await t?.close();
    });

    it.each([
      ['dam.example.com', 200],
      ['dam.example.com:1234', 200],
      ['other.example:8443', 200],
      ['other.example:8444', 400],
      ['other.example', 400],
      ['localhost:3000', 400],
      ['[::1]', 400],
    ])('Host %s answers %i (an entry without a port allows any port)', async (host, status) => {
      await api.get('/rest', t.adminToken).set('Host', host).expect(status);
    });

    it('puts its first entry in webhook payloads, whatever host the change came through', async () => {
      const receiver = await hookedReceiver(t);
      const { location, data } = await categoryAndPayload(t, receiver);
      expect(location.startsWith(`${t.baseUrl}/rest/categories/`)).toBe(true);
      expect(data.categoryUrl).toBe(location.replace(t.baseUrl, 'http://dam.example.com'));
    });
  });

  describe('DAM_TRUST_PROXY', () => {
    let t: TestApp;
    const api = bearerRequests(() => t);

    beforeAll(async () => {
      t = await TestApp.start({
        env: { DAM_TRUST_PROXY: 'true', DAM_ALLOWED_HOSTS: '127.0.0.1,dam.example.org' },
      });
    });

    afterAll(async () => {
      await t?.close();
    });

    it('judges X-Forwarded-Host as it would Host', async () => {
      const refused = await api
        .get('/rest', t.adminToken)
        .set('X-Forwarded-Host', 'evil.example')
        .set('X-Forwarded-Proto', 'https')
        .expect(400);
      expect(refused.text).toBe('X-Forwarded-Host "evil.example" is not a name of this service');
      const allowed = await api
        .get('/rest', t.adminToken)
        .set('X-Forwarded-Host', 'dam.example.org')
        .set('X-Forwarded-Proto', 'https')
        .expect(200);
      expect(allowed.body.api_version_1_3.usersUrl).toBe('https://dam.example.org/rest/users');
    });
  });

  describe('DAM_PUBLIC_URL', () => {
    let t: TestApp;
    const api = bearerRequests(() => t);

    afterEach(async () => {
      await t?.close();
    });

    it('makes the Host irrelevant: every Host is accepted and URLs take the public origin', async () => {
      t = await TestApp.start({ env: { DAM_PUBLIC_URL: 'https://dam.example.com' } });
      const response = await api.get('/rest', t.adminToken).set('Host', 'evil.example').expect(200);
      expect(response.body.api_version_1_3.usersUrl).toBe('https://dam.example.com/rest/users');
    });

    it('still enforces DAM_ALLOWED_HOSTS when it is set too', async () => {
      t = await TestApp.start({
        env: { DAM_PUBLIC_URL: 'https://dam.example.com', DAM_ALLOWED_HOSTS: '127.0.0.1' },
      });
      await api.get('/rest', t.adminToken).set('Host', 'evil.example').expect(400);
      await api.get('/rest', t.adminToken).expect(200);
    });
  });
});
