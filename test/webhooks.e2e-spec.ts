import { DomainEvent, DomainEvents } from '@dam/events';
import { WebhookDispatcher } from '@dam/webhooks';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { DataSource } from 'typeorm';
import { accessLevelRequests } from './helpers/access-level-requests';
import { bearerRequests, pathOf } from './helpers/bearer-requests';
import { MATRIX } from './helpers/databases';
import { TestApp, TestUser } from './helpers/test-app';
import { eventually, WebhookReceiver } from './helpers/webhook-receiver';

jest.setTimeout(120_000);

class ProbeHappened extends DomainEvent<{ probe: string }> {
  readonly type = 'probe.happened';
}

/**
 * Issue 19: domain events and signed webhooks on one instance (webhooks-instances covers several
 * processes). Receivers listen on 127.0.0.1, allowed by DAM_WEBHOOK_ALLOWED_HOSTS; retries are shortened.
 */
describe(`webhooks (${MATRIX})`, () => {
  let t: TestApp;
  let user: TestUser;
  let levelId: number;
  const receivers: WebhookReceiver[] = [];
  const api = bearerRequests(() => t);

  beforeAll(async () => {
    t = await TestApp.start({
      env: {
        DAM_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
        DAM_WEBHOOK_POLL_MS: '100',
        DAM_WEBHOOK_RETRY_BASE_SECONDS: '0.2',
        DAM_PUBLIC_URL: 'http://dam.example',
      },
    });
    user = await t.createUser();
    levelId = (await accessLevelRequests(() => t).createLevel(`hooks-${Date.now()}`)).id;
  });

  afterAll(async () => {
    await t?.close();
    await Promise.all(receivers.map((receiver) => receiver.close()));
  });

  async function receiver(answer?: (index: number) => number): Promise<WebhookReceiver> {
    const started = await WebhookReceiver.start(answer);
    receivers.push(started);
    return started;
  }

  async function register(
    url: string,
    events: string[],
  ): Promise<{ path: string; secret: string; id: number }> {
    const response = await api
      .post('/rest/admin/webhooks', t.adminToken, { url, events, description: 'e2e' })
      .expect(201);
    expect(response.headers.location).toBe(response.body.self);
    expect(response.body.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    return {
      path: pathOf(response.headers.location as string),
      secret: response.body.secret as string,
      id: response.body.id,
    };
  }

  const createAsset = async (): Promise<string> =>
    (await api.post('/rest/assets', t.adminToken, { accessLevels: [{ id: levelId }] }).expect(201)).body
      .url as string;

  it('registers a webhook (201, Location, the secret once), lists, reads, changes and deletes it', async () => {
    const target = await receiver();
    const created = await register(target.url, ['asset.created', 'category.*']);
    const read = await api.get(created.path, t.adminToken).expect(200);
    expect(read.body).toMatchObject({
      id: created.id,
      url: target.url,
      events: ['asset.created', 'category.*'],
      description: 'e2e',
      enabled: true,
      disabledReason: null,
      self: `http://dam.example${created.path}`,
      deliveriesUrl: `http://dam.example${created.path}/deliveries`,
    });
    expect(read.body.secret).toBeUndefined();
    const list = await api.get('/rest/admin/webhooks', t.adminToken).expect(200);
    expect(list.body.map((hook: { id: number }) => hook.id)).toContain(created.id);
    expect(list.body.every((hook: { secret?: string }) => hook.secret === undefined)).toBe(true);

    const changed = await api
      .put(created.path, t.adminToken, { events: ['user.*'], description: 'changed' })
      .expect(200);
    expect(changed.body).toMatchObject({ events: ['user.*'], description: 'changed', url: target.url });
    const rotated = await api.post(`${created.path}/secret`, t.adminToken, {}).expect(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.secret);

    await api.delete(created.path, t.adminToken).expect(204);
    await api.get(created.path, t.adminToken).expect(404);
    await api.get(`${created.path}/deliveries`, t.adminToken).expect(404);
  });

  it('refuses loopback, link-local and private targets not listed in DAM_WEBHOOK_ALLOWED_HOSTS (400)', async () => {
    for (const url of [
      'http://10.1.2.3/hook',
      'http://192.168.0.10/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://127.0.0.2:8080/hook',
      'http://[::1]:8080/hook',
      'http://localhost:8080/hook',
    ]) {
      const response = await api
        .post('/rest/admin/webhooks', t.adminToken, { url, events: ['asset.created'] })
        .expect(400);
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
      expect(response.text).toMatch(/an address webhooks may not target|cannot be resolved/);
    }
    for (const body of [
      { url: 'ftp://8.8.8.8/hook', events: ['asset.created'] },
      { url: 'https://8.8.8.8/hook', events: [] },
      { url: 'https://8.8.8.8/hook', events: ['not an event'] },
      { events: ['asset.created'] },
    ])
      await api.post('/rest/admin/webhooks', t.adminToken, body).expect(400);
    const listed = await api.get('/rest/admin/webhooks', t.adminToken).expect(200);
    expect(listed.body.some((hook: { url: string }) => !hook.url.startsWith('http://127.0.0.1:'))).toBe(
      false,
    );
  });

  it('is for admins only (403 for other users)', async () => {
    const target = await receiver();
    const created = await register(target.url, ['asset.created']);
    await api
      .post('/rest/admin/webhooks', user.token, { url: target.url, events: ['asset.created'] })
      .expect(403);
    await api.get('/rest/admin/webhooks', user.token).expect(403);
    await api.get(created.path, user.token).expect(403);
    await api.put(created.path, user.token, { description: 'mine' }).expect(403);
    await api.post(`${created.path}/secret`, user.token, {}).expect(403);
    await api.get(`${created.path}/deliveries`, user.token).expect(403);
    await api.delete(created.path, user.token).expect(403);
    await api.delete(created.path, t.adminToken).expect(204);
  });

  it('delivers asset.created to a loopback receiver, signed (Standard Webhooks), with absolute URLs', async () => {
    const target = await receiver();
    const hook = await register(target.url, ['asset.created']);
    const assetUrl = await createAsset();
    await eventually(() => (target.received.length > 0 ? true : undefined));
    const [delivered] = target.verified(hook.secret);
    expect(delivered).toMatchObject({
      type: 'asset.created',
      data: { assetUrl, assetId: Number(assetUrl.split('/').pop()) },
    });
    expect(assetUrl.startsWith('http://dam.example/rest/assets/')).toBe(true);
    expect(new Date(delivered.timestamp).toISOString()).toBe(delivered.timestamp);
    expect(delivered.id).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(target.received[0].headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    expect(target.received[0].headers['content-type']).toBe('application/json');
    // The rotated secret signs the next deliveries; the old one no longer verifies them.
    const rotated = (await api.post(`${hook.path}/secret`, t.adminToken, {}).expect(200)).body
      .secret as string;
    await createAsset();
    await eventually(() => (target.received.length > 1 ? true : undefined));
    expect(() => target.verifiedAt(1, hook.secret)).toThrow();
    expect(target.verifiedAt(1, rotated).type).toBe('asset.created');

    const deliveries = await api.get(`${hook.path}/deliveries`, t.adminToken).expect(200);
    expect(deliveries.headers['x-total-count']).toBe('2');
    expect(deliveries.body[1]).toMatchObject({
      eventId: delivered.id,
      event: 'asset.created',
      status: 'succeeded',
      attempts: 1,
      lastResponseCode: 204,
      nextAttemptAt: null,
    });
  });

  it('retries a receiver that fails twice, then records exactly one successful delivery', async () => {
    const target = await receiver((index) => (index < 2 ? 500 : 200));
    const hook = await register(target.url, ['category.created']);
    await api.post('/rest/categories', t.adminToken, { name: `hooked-${Date.now()}` }).expect(201);
    const [delivery] = await eventually(async () => {
      const page = await api.get(`${hook.path}/deliveries`, t.adminToken).expect(200);
      return page.body[0]?.status === 'succeeded' ? (page.body as Array<Record<string, unknown>>) : undefined;
    });
    expect(delivery).toMatchObject({
      event: 'category.created',
      status: 'succeeded',
      attempts: 3,
      lastResponseCode: 200,
    });
    expect(target.received.map((request) => request.answered)).toEqual([500, 500, 200]);
    expect(new Set(target.received.map((request) => request.headers['webhook-id'])).size).toBe(1);
    expect(target.verified(hook.secret).map((body) => body.type)).toEqual(Array(3).fill('category.created'));
    const all = await api.get(`${hook.path}/deliveries`, t.adminToken).expect(200);
    expect(all.headers['x-total-count']).toBe('1');
  });

  it('disables an endpoint that fails for the whole retry window, and says why', async () => {
    // Base 0.2 s: the window (0.2 × 4095 s) is far longer than this test, so shorten nothing else: the
    // disabling rule is checked with a receiver failing for good and a webhook whose streak is old.
    const target = await receiver(() => 503);
    const hook = await register(target.url, ['lightbox.created']);
    const dataSource = t.app.get(DataSource);
    await dataSource
      .createQueryBuilder()
      .update('webhooks')
      .set({ failing_since: new Date(Date.now() - 2 * 24 * 3600 * 1000) })
      .where('id = :id', { id: hook.id })
      .execute();
    await api
      .post(`/rest/users/${user.id}/lightboxes`, user.token, { name: `box-${Date.now()}` })
      .expect(201);
    const disabled = await eventually(async () => {
      const read = await api.get(hook.path, t.adminToken).expect(200);
      return read.body.enabled === false ? read.body : undefined;
    });
    expect(disabled.disabledReason).toMatch(
      /^every delivery failed since .*; the last: failed: answered 503$/,
    );
    const [delivery] = (await api.get(`${hook.path}/deliveries`, t.adminToken).expect(200)).body;
    expect(delivery).toMatchObject({ status: 'failed', lastResponseCode: 503, event: 'lightbox.created' });
    // Re-enabled by an admin, it gets new events again.
    await api.put(hook.path, t.adminToken, { enabled: true, url: (await receiver()).url }).expect(200);
    const reread = await api.get(hook.path, t.adminToken).expect(200);
    expect(reread.body).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
  });

  it('emits an event in process and stores it in the outbox only when its transaction commits', async () => {
    const emitter = t.app.get(EventEmitter2);
    const events = t.app.get(DomainEvents);
    const dataSource = t.app.get(DataSource);
    const heard: string[] = [];
    const listener = (event: ProbeHappened) => heard.push(event.data.probe);
    emitter.on('probe.happened', listener);
    const stored = async (probe: string): Promise<number> => {
      const rows: unknown[] = await dataSource
        .createQueryBuilder()
        .select('e.id')
        .from('domain_events', 'e')
        .where('e.data LIKE :probe', { probe: `%${probe}%` })
        .getRawMany();
      return rows.length;
    };
    try {
      await expect(
        dataSource.transaction(async (manager) => {
          await events.record(manager, new ProbeHappened({ probe: 'rolled-back' }));
          throw new Error('the change fails after its event was recorded');
        }),
      ).rejects.toThrow('the change fails');
      await dataSource.transaction((manager) =>
        events.record(manager, new ProbeHappened({ probe: 'committed' })),
      );
      await eventually(() => (heard.length > 0 ? true : undefined));
      await new Promise((resolve) => setImmediate(resolve));
      expect(heard).toEqual(['committed']);
      expect(await stored('rolled-back')).toBe(0);
    } finally {
      emitter.off('probe.happened', listener);
    }
  });

  it('records no event for a create that fails (nothing delivered), one for each that succeeds', async () => {
    const target = await receiver();
    const hook = await register(target.url, ['lightbox.*']);
    const name = `twice-${Date.now()}`;
    await api.post(`/rest/users/${user.id}/lightboxes`, user.token, { name }).expect(201);
    await api.post(`/rest/users/${user.id}/lightboxes`, user.token, { name }).expect(409);
    await api.post('/rest/assets', t.adminToken, { accessLevels: [{ id: 999999 }] }).expect(400);
    await eventually(() => (target.received.length > 0 ? true : undefined));
    // Another, later change proves the dispatcher went past the failed one.
    await api.post(`/rest/users/${user.id}/lightboxes`, user.token, { name: `${name}-2` }).expect(201);
    await eventually(() => (target.received.length > 1 ? true : undefined));
    await t.app.get(WebhookDispatcher).drain();
    expect(target.verified(hook.secret).map((body) => body.type)).toEqual([
      'lightbox.created',
      'lightbox.created',
    ]);
  });
});
