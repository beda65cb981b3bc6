import { createTestDatabase, TestDatabase } from './helpers/databases';
import { TcpProxy } from './helpers/tcp-proxy';
import { TestApp } from './helpers/test-app';

jest.setTimeout(60_000);

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Readiness when the database hangs: inherently MariaDB (reached through a proxy that stops passing
 * bytes), so this file runs in the MariaDB leg only (MYSQL_ONLY in jest.config.ts), like faults.e2e-spec.
 */
describe('health probes: the database hangs', () => {
  /** DAM_DATABASE_TIMEOUT_MS of this app. */
  const QUERY_TIMEOUT_MS = 1500;
  let database: TestDatabase;
  let proxy: TcpProxy;
  let t: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase('mysql', { migrated: true });
    const server = new URL(database.databaseUrl ?? '');
    proxy = await TcpProxy.listen(server.hostname, Number(server.port === '' ? 3306 : server.port));
    t = await TestApp.start({
      matrix: 'mysql',
      database: { ...database, databaseUrl: proxy.rewrite(database.databaseUrl ?? '') },
      env: { DAM_DATABASE_TIMEOUT_MS: String(QUERY_TIMEOUT_MS) },
    });
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.stop();
    await database?.drop();
  });

  it('ready answers 503 naming the database while it does not answer; live answers throughout', async () => {
    await t.http.get('/health/ready').expect(200);
    proxy.freeze();
    try {
      const ready = await t.http.get('/health/ready').expect(503);
      expect(ready.body).toMatchObject({
        status: 'error',
        error: { database: { status: 'down' } },
        details: { storage: { status: 'up' } },
      });
      expect(ready.body.error.storage).toBeUndefined();
      await t.http.get('/health/live').expect(200);
    } finally {
      proxy.thaw();
    }
    // Readiness returns without a restart, on fresh connections.
    const deadline = Date.now() + 20_000;
    let status = 0;
    while (status !== 200 && Date.now() < deadline) {
      status = (await t.http.get('/health/ready')).status;
      if (status !== 200) await sleep(250);
    }
    expect(status).toBe(200);
    // The ping sent while frozen never gets its answer: let its deadline give the connection up before
    // the app closes (closing waits for busy connections).
    await sleep(QUERY_TIMEOUT_MS + 500);
  });
});
