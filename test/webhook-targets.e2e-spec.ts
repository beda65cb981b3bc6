import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { bearerRequests, pathOf } from './helpers/bearer-requests';
import { MATRIX } from './helpers/databases';
import { TestApp } from './helpers/test-app';
import { eventually, WebhookReceiver } from './helpers/webhook-receiver';

jest.setTimeout(120_000);

/**
 * Issue 36 point 5: the webhook target guard classifies addresses by ipaddr.js's range names, refuses every
 * IPv6 form that carries or reaches IPv4 or a private network, at registration and again at delivery, and
 * tells admins "refused" or "failed" rather than the state of a port. Receivers listen on 127.0.0.1,
 * allowed by DAM_WEBHOOK_ALLOWED_HOSTS.
 */
describe(`webhook targets (${MATRIX})`, () => {
  let t: TestApp;
  const receivers: WebhookReceiver[] = [];
  const api = bearerRequests(() => t);

  beforeAll(async () => {
    t = await TestApp.start({
      env: {
        DAM_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
        DAM_WEBHOOK_POLL_MS: '100',
        DAM_WEBHOOK_RETRY_BASE_SECONDS: '60',
        DAM_WEBHOOK_TIMEOUT_MS: '2000',
      },
    });
  });

  afterAll(async () => {
    await t?.close();
    await Promise.all(receivers.map((receiver) => receiver.close()));
  });

  async function receiver(): Promise<WebhookReceiver> {
    const started = await WebhookReceiver.start();
    receivers.push(started);
    return started;
  }

  async function register(url: string, event: string): Promise<{ id: number; path: string }> {
    const response = await api
      .post('/rest/admin/webhooks', t.adminToken, { url, events: [event] })
      .expect(201);
    return { id: response.body.id as number, path: pathOf(response.headers.location as string) };
  }

  /** The first delivery of `hook` once it has been attempted. */
  async function firstAttempt(hook: { path: string }): Promise<Record<string, unknown>> {
    return eventually(async () => {
      const page = await api.get(`${hook.path}/deliveries`, t.adminToken).expect(200);
      const delivery = page.body[0] as Record<string, unknown> | undefined;
      return delivery !== undefined && Number(delivery.attempts) > 0 ? delivery : undefined;
    });
  }

  const newCategory = async (): Promise<void> => {
    await api
      .post('/rest/categories', t.adminToken, { name: `targets-${Date.now()}-${Math.random()}` })
      .expect(201);
  };

  it.each([
    ['http://[::127.0.0.1]/hook', 'IPv4-compatible'],
    ['http://[::a00:1]/hook', 'IPv4-compatible'],
    ['http://[::ffff:0:7f00:1]/hook', 'IPv4-translated'],
    ['http://[64:ff9b::7f00:1]/hook', 'NAT64'],
    ['http://[64:ff9b:1::7f00:1]/hook', 'NAT64'],
    ['http://[2002:7f00:1::]/hook', '6to4'],
    ['http://[2002:a00:1::]/hook', '6to4'],
    ['http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook', 'Teredo'],
    ['http://[fec0::1]/hook', 'site-local'],
    ['http://[::ffff:127.0.0.1]/hook', 'loopback'],
    ['http://100.64.0.1/hook', 'carrier-grade NAT'],
    ['http://240.0.0.1/hook', 'reserved'],
  ])('refuses %s at registration (400, %s)', async (url, range) => {
    const response = await api
      .post('/rest/admin/webhooks', t.adminToken, { url, events: ['category.created'] })
      .expect(400);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.text).toContain(range);
    expect(response.text).toContain('an address webhooks may not target');
  });

  describe('at delivery (a target stored before the guard was tightened)', () => {
    /** Registers an allowed receiver, then points the stored row at `url`, as an older version accepted it. */
    async function storedTarget(
      url: (port: string) => string,
    ): Promise<{ id: number; path: string; target: WebhookReceiver }> {
      const target = await receiver();
      const hook = await register(target.url, 'category.created');
      const port = new URL(target.url).port;
      await t.app
        .get(DataSource)
        .createQueryBuilder()
        .update('webhooks')
        .set({ url: url(port) })
        .where('id = :id', { id: hook.id })
        .execute();
      return { ...hook, target };
    }

    it('refuses an IPv6 literal that carries a loopback address, without connecting', async () => {
      const hook = await storedTarget((port) => `http://[::ffff:0:7f00:1]:${port}/hook`);
      await newCategory();
      const delivery = await firstAttempt(hook);
      expect(delivery.status).toBe('pending');
      expect(delivery.lastResponseCode).toBeNull();
      expect(delivery.lastError).toMatch(
        /^refused: ::ffff:0:7f00:1 is an address webhooks may not target: IPv4-translated/,
      );
      expect(hook.target.received).toHaveLength(0);
    });

    it('refuses a name when the address it resolves to at connect time is loopback', async () => {
      const hook = await storedTarget((port) => `http://localhost:${port}/hook`);
      await newCategory();
      const delivery = await firstAttempt(hook);
      expect(delivery.lastError).toMatch(
        /^refused: localhost resolves to .*, an address webhooks may not target: loopback/,
      );
      expect(hook.target.received).toHaveLength(0);
    });
  });

  it('says "failed", not the state of the port, when nothing answers', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const hook = await register(`http://127.0.0.1:${port}/hook`, 'category.created');
    await newCategory();
    const delivery = await firstAttempt(hook);
    expect(delivery).toMatchObject({
      status: 'pending',
      lastResponseCode: null,
      lastError: 'failed: no answer (the connection failed or timed out)',
    });
    expect(String(delivery.lastError)).not.toMatch(/ECONNREFUSED|refused|port/i);
  });

  it('does not follow a redirect: the hop it names is never called', async () => {
    const redirecting = http.createServer((_request, response) =>
      response.writeHead(307, { Location: 'http://10.0.0.1/hook' }).end(),
    );
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    try {
      const port = (redirecting.address() as AddressInfo).port;
      const hook = await register(`http://127.0.0.1:${port}/hook`, 'category.created');
      await newCategory();
      const delivery = await firstAttempt(hook);
      expect(delivery).toMatchObject({
        lastResponseCode: 307,
        lastError: 'failed: answered 307 (redirects are not followed)',
      });
    } finally {
      redirecting.closeAllConnections();
      await new Promise<void>((resolve) => redirecting.close(() => resolve()));
    }
  });
});
