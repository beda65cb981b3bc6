import * as fs from 'node:fs';
import * as path from 'node:path';
import { MATRIX } from './helpers/databases';
import { RestartableObjectStore, startS3rver } from './helpers/object-store';
import { TcpProxy } from './helpers/tcp-proxy';
import { TestApp } from './helpers/test-app';

jest.setTimeout(60_000);

/**
 * Issue 16: `/health/live` (the process answers, no dependency asked), `/health/ready` (database and
 * object store, 1 s each; 503 naming the one that failed) and `/health` kept, all public JSON.
 */
describe('health probes', () => {
  let t: TestApp;
  /** On the mysql matrix: the app's store, behind a proxy that a test freezes (a store that hangs). */
  let store: RestartableObjectStore | undefined;
  let storeProxy: TcpProxy | undefined;

  beforeAll(async () => {
    if (MATRIX === 'mysql') {
      store = await startS3rver();
      storeProxy = await TcpProxy.listen('127.0.0.1', Number(store.env.MINIO_PORT));
      t = await TestApp.start({
        objectStore: { ...store, env: { ...store.env, MINIO_PORT: String(storeProxy.port) } },
      });
    } else {
      t = await TestApp.start();
    }
  });
  afterAll(async () => {
    await t?.close();
    await storeProxy?.stop();
    await store?.stop();
  });

  it('live, ready and /health answer 200 without a token, in JSON, whatever the Accept', async () => {
    const live = await t.http.get('/health/live').set('Accept', 'application/xml').expect(200);
    expect(live.headers['content-type']).toMatch(/^application\/json/);
    expect(live.body).toEqual({ status: 'ok', info: {}, error: {}, details: {} });

    const ready = await t.http.get('/health/ready').expect(200);
    expect(ready.body).toMatchObject({
      status: 'ok',
      details: { database: { status: 'up' }, storage: { status: 'up' } },
    });
    const health = await t.http.get('/health').expect(200);
    // The same checks (terminus 12 adds each one's responseTime, which differs between two calls).
    const statuses = (details: Record<string, { status: string }>) =>
      Object.fromEntries(Object.entries(details).map(([name, { status }]) => [name, status]));
    expect(statuses(health.body.details)).toEqual(statuses(ready.body.details));
  });

  it('ready answers 503 naming the store while it is unusable (live stays 200), and 200 once it is back', async () => {
    const temp = path.join(t.config.dataDir, 'storage', '.tmp');
    const breakStore = () =>
      storeProxy === undefined ? fs.rmSync(temp, { recursive: true, force: true }) : storeProxy.freeze();
    const repairStore = () =>
      storeProxy === undefined ? fs.mkdirSync(temp, { recursive: true }) : storeProxy.thaw();
    breakStore();
    try {
      const ready = await t.http.get('/health/ready').expect(503);
      expect(ready.headers['content-type']).toMatch(/^application\/json/);
      expect(ready.headers['retry-after']).toBe('5');
      expect(ready.body).toMatchObject({
        status: 'error',
        error: { storage: { status: 'down', message: 'the object store cannot be reached' } },
        details: { database: { status: 'up' }, storage: { status: 'down' } },
      });
      expect(ready.body.error.database).toBeUndefined();
      await t.http.get('/health/live').expect(200);
    } finally {
      repairStore();
    }
    await t.http.get('/health/ready').expect(200);
  });
});
