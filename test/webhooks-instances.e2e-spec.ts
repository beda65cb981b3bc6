import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { createTestDatabase, MATRIX, TestDatabase } from './helpers/databases';
import { startObjectStore, TestObjectStore } from './helpers/object-store';
import { ServiceProcess } from './helpers/service-process';
import { eventually, WebhookReceiver } from './helpers/webhook-receiver';

jest.setTimeout(240_000);

/**
 * Issue 19: the outbox across processes. A process killed after a change committed, before any delivery,
 * leaves the event in the outbox and the next process delivers it; two processes delivering side by side
 * deliver each event once. Processes run apps/api/src/main.ts on one database (SQLite file or MySQL) and
 * one store, like two-instances.e2e-spec.ts.
 */
describe(`webhooks across processes (${MATRIX})`, () => {
  let database: TestDatabase;
  let store: TestObjectStore | undefined;
  let receiver: WebhookReceiver;
  const processes: ServiceProcess[] = [];
  const clientId = 'webhooks-instances';
  const clientSecret = randomBytes(18).toString('base64url');
  let env: Record<string, string>;

  const on = (service: ServiceProcess, token: string) => ({
    post: (path: string, body: object) =>
      request(service.baseUrl).post(path).auth(token, { type: 'bearer' }).send(body),
    get: (path: string) => request(service.baseUrl).get(path).auth(token, { type: 'bearer' }),
  });

  async function start(pollMs: string): Promise<{ service: ServiceProcess; token: string }> {
    const service = new ServiceProcess({ ...env, DAM_WEBHOOK_POLL_MS: pollMs });
    processes.push(service);
    await service.start();
    return { service, token: await service.token(clientId, clientSecret) };
  }

  beforeAll(async () => {
    database = await createTestDatabase(MATRIX, { migrated: true });
    receiver = await WebhookReceiver.start();
    env = {
      DAM_DATA_DIR: database.dataDir,
      DAM_CLIENT_ID: clientId,
      DAM_CLIENT_SECRET: clientSecret,
      DAM_PUBLIC_URL: 'http://dam.test',
      DAM_LOG_REQUESTS: 'false',
      DAM_DATABASE_CONNECT_RETRIES: '0',
      DAM_JOBS_ENABLED: 'false',
      DAM_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      DAM_WEBHOOK_RETRY_BASE_SECONDS: '0.5',
      NO_COLOR: '1',
    };
    if (MATRIX === 'mysql') {
      store = await startObjectStore();
      Object.assign(env, { DATABASE_URL: database.databaseUrl ?? '' }, store.env);
    }
  });

  afterAll(async () => {
    await Promise.all(processes.map((service) => service.kill()));
    await receiver?.close();
    await store?.stop();
    await database?.drop();
  });

  it('delivers after a restart what a killed process committed, and each event once with two processes', async () => {
    // A process that delivers nothing (DAM_WEBHOOK_POLL_MS=0): its changes commit, it dies before any delivery.
    const first = await start('0');
    const api = on(first.service, first.token);
    const hook = await api
      .post('/rest/admin/webhooks', { url: receiver.url, events: ['asset.created', 'category.created'] })
      .expect(201);
    const secret = hook.body.secret as string;
    const level = await api.post('/rest/access-levels', { name: `killed-${Date.now()}` }).expect(201);
    const levelId = level.body.id as number;
    const killedAsset = (await api.post('/rest/assets', { accessLevels: [{ id: levelId }] }).expect(201)).body
      .url as string;
    await first.service.kill();
    expect(receiver.received).toHaveLength(0);

    // Two delivering processes on the same database.
    const [a, b] = await Promise.all([start('100'), start('100')]);
    const [first1] = await eventually(() =>
      receiver.received.length > 0 ? receiver.verified(secret) : undefined,
    );
    expect(first1).toMatchObject({ type: 'asset.created', data: { assetUrl: killedAsset } });

    const created: string[] = [killedAsset];
    for (let i = 0; i < 8; i++) {
      const via = i % 2 === 0 ? on(a.service, a.token) : on(b.service, b.token);
      created.push(
        (await via.post('/rest/assets', { accessLevels: [{ id: levelId }] }).expect(201)).body.url as string,
      );
      await via.post('/rest/categories', { name: `cat-${i}-${Date.now()}` }).expect(201);
    }
    await eventually(() => (receiver.received.length >= created.length + 8 ? true : undefined));
    // Both keep polling: give them time to deliver anything twice, if they would.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const bodies = receiver.verified(secret);
    expect(bodies).toHaveLength(created.length + 8);
    expect(new Set(bodies.map((body) => body.id)).size).toBe(bodies.length);
    expect(
      bodies
        .filter((body) => body.type === 'asset.created')
        .map((body) => body.data.assetUrl)
        .sort(),
    ).toEqual([...created].sort());
    expect(bodies.filter((body) => body.type === 'category.created')).toHaveLength(8);

    const deliveries = await on(a.service, a.token)
      .get(`${new URL(hook.headers.location as string).pathname}/deliveries`)
      .expect(200);
    expect(deliveries.headers['x-total-count']).toBe(String(created.length + 8));
  });
});
