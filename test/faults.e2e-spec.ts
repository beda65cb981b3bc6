import { CacheGenerations } from '@dam/database';
import { JobContext, JobRegistry, MaintenanceJob } from '@dam/jobs';
import { DataSource } from 'typeorm';
import type { Response } from 'supertest';
import { bearerRequests, pathOf } from './helpers/bearer-requests';
import { contentRequests, fetchSigned } from './helpers/content-fixtures';
import { createTestDatabase, TestDatabase } from './helpers/databases';
import { RestartableObjectStore, startS3rver } from './helpers/object-store';
import { defaultAccessLevelId } from './helpers/permission-fixtures';
import { storedKeys } from './helpers/stored-keys';
import { TcpProxy } from './helpers/tcp-proxy';
import { TestApp } from './helpers/test-app';

jest.setTimeout(60_000);

/** A generous "refused fast" bound: a dependency that is down must not leave clients waiting for minutes. */
const FAST_MS = 5_000;
/** How long the API may take to use a dependency again once it is back. */
const RECOVERY_MS = 20_000;
/**
 * DAM_DATABASE_TIMEOUT_MS and DAM_STORAGE_TIMEOUT_MS of the apps here: a hung dependency (which never
 * answers) is a 503 after this; the specs allow 3x for a loaded machine.
 */
const TIMEOUT_MS = 2_000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A maintenance job whose one statement takes longer than a request's query deadline (TIMEOUT_MS). */
class LongStatementJob extends MaintenanceJob {
  readonly name = 'test-long-statement';
  readonly defaultCron = 'off';
  readonly description = 'one statement of TIMEOUT_MS + 1 s';
  constructor(private readonly dataSource: () => DataSource) {
    super();
  }
  async run(context: JobContext): Promise<void> {
    const [row] = (await this.dataSource().query(
      `SELECT SLEEP(${(TIMEOUT_MS + 1_000) / 1000}) AS slept`,
    )) as Array<{
      slept: unknown;
    }>;
    context.summary.examined = Number(row.slept) === 0 ? 1 : 0;
  }
}

/**
 * Issue 8: the database and the object store stop and come back while the API runs. Inherently about
 * MariaDB and an S3-compatible store, so this file uses them whatever DAM_TEST_MATRIX says. The shared
 * MariaDB server is never stopped: the API reaches it through a TCP proxy, and "MySQL stops" is the proxy
 * closing its listener and cutting every connection. s3rver runs in this process and really stops.
 */
describe('faults: MySQL and the object store stop and come back', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let store: RestartableObjectStore;
  /** In front of s3rver, so a test can make the store hang (freeze) without stopping it. */
  let storeProxy: TcpProxy;
  let t: TestApp;
  let level: number;
  const { get, post } = bearerRequests(() => t);
  const { newAsset, upload } = contentRequests(() => t);
  /** Every status any request of this file saw: none may be a 500. */
  const statuses: number[] = [];
  const seen = (response: Response): Response => {
    statuses.push(response.status);
    return response;
  };

  beforeAll(async () => {
    database = await createTestDatabase('mysql', { migrated: true });
    const server = new URL(database.databaseUrl ?? '');
    proxy = await TcpProxy.listen(server.hostname, Number(server.port === '' ? 3306 : server.port));
    store = await startS3rver();
    storeProxy = await TcpProxy.listen('127.0.0.1', Number(store.env.MINIO_PORT));
    t = await TestApp.start({
      matrix: 'mysql',
      database: { ...database, databaseUrl: proxy.rewrite(database.databaseUrl ?? '') },
      objectStore: { ...store, env: { ...store.env, MINIO_PORT: String(storeProxy.port) } },
      env: { DAM_DATABASE_TIMEOUT_MS: String(TIMEOUT_MS), DAM_STORAGE_TIMEOUT_MS: String(TIMEOUT_MS) },
    });
    level = await defaultAccessLevelId(t);
    // Caches may answer from memory for up to a second after the database went: read the generations every time.
    t.app.get(CacheGenerations).refreshMs = 0;
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.stop();
    await storeProxy?.stop();
    await store?.stop();
    await database?.drop();
  });
  afterAll(() => expect(statuses.filter((status) => status >= 500 && status !== 503)).toEqual([]));

  /** Answered 503 in plain text with Retry-After, within the "fast" bound. */
  async function expectUnavailable(request: () => PromiseLike<Response>, what: string): Promise<void> {
    const started = Date.now();
    const response = seen(await request());
    const elapsed = Date.now() - started;
    expect({ what, status: response.status }).toEqual({ what, status: 503 });
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.headers['retry-after']).toMatch(/^\d+$/);
    expect(response.text).toMatch(/temporarily unavailable/);
    expect(elapsed).toBeLessThan(FAST_MS);
  }

  /** Retries `request` until it answers `status` or RECOVERY_MS pass; the last answer. */
  async function pollUntil(request: () => PromiseLike<Response>, status: number): Promise<Response> {
    const deadline = Date.now() + RECOVERY_MS;
    for (;;) {
      const response = seen(await request());
      if (response.status === status || Date.now() > deadline) return response;
      await sleep(250);
    }
  }

  describe('MySQL stopped mid-run', () => {
    it('answers 503 fast while the database is gone, /health says down, and recovers without a restart', async () => {
      const asset = await newAsset(level);
      const me = await get('/rest/authenticated-user', t.adminToken).expect(200);
      const lightboxes = `/rest/users/${String(me.body.id)}/lightboxes`;
      const requests: Array<[string, () => PromiseLike<Response>, number]> = [
        ['GET asset', () => get(asset, t.adminToken), 200],
        ['GET access levels', () => get('/rest/access-levels', t.adminToken), 200],
        ['GET lightboxes', () => get(lightboxes, t.adminToken), 200],
        ['POST asset', () => post('/rest/assets', t.adminToken, { accessLevels: [{ id: level }] }), 201],
        ['POST lightbox', () => post(lightboxes, t.adminToken, { name: `box-${Date.now()}` }), 201],
      ];
      for (const [, request, status] of requests) expect(seen(await request()).status).toBe(status);

      for (let outage = 1; outage <= 2; outage += 1) {
        await proxy.stop();
        for (const [what, request] of requests)
          await expectUnavailable(request, `${what} (outage ${outage})`);
        const health = seen(await t.http.get('/health'));
        expect(health.status).toBe(503);
        expect(health.body).toMatchObject({
          error: { database: { status: 'down' } },
          info: { storage: { status: 'up' } },
        });

        await proxy.start();
        for (const [what, request, status] of requests) {
          expect({ what, status: (await pollUntil(request, status)).status }).toEqual({ what, status });
        }
        expect(seen(await t.http.get('/health')).status).toBe(200);
      }
    });

    it('answers 503 within the query timeout while MySQL hangs (accepts, never answers), then recovers by itself', async () => {
      const asset = await newAsset(level);
      const me = await get('/rest/authenticated-user', t.adminToken).expect(200);
      const lightboxes = `/rest/users/${String(me.body.id)}/lightboxes`;
      proxy.freeze();
      try {
        // Twice: the first wave meets pooled connections, the second fresh ones whose handshake never comes.
        for (let wave = 1; wave <= 2; wave += 1) {
          const started = Date.now();
          const answers = await Promise.all([
            ...Array.from({ length: 4 }, () => get(asset, t.adminToken)),
            get('/rest/access-levels', t.adminToken),
            // Facets with a filter read the matches through a temporary table on one connection.
            get(
              '/rest/asset-search?dateAddedLower=2000-01-01&facets=accessLevels,dateAdded:year',
              t.adminToken,
            ),
            post(lightboxes, t.adminToken, { name: `hung-${wave}-${Date.now()}` }),
          ]);
          const elapsed = Date.now() - started;
          for (const answer of answers) {
            seen(answer);
            expect({ wave, status: answer.status }).toEqual({ wave, status: 503 });
            expect(answer.headers['retry-after']).toMatch(/^\d+$/);
            expect(answer.text).toMatch(/temporarily unavailable/);
          }
          expect(answers.map((answer) => answer.text)).toContain(
            `the database did not answer within ${TIMEOUT_MS} ms; the service is temporarily unavailable, try again shortly`,
          );
          expect(elapsed).toBeLessThan(3 * TIMEOUT_MS);
        }
      } finally {
        proxy.thaw();
      }
      expect((await pollUntil(() => get(asset, t.adminToken), 200)).status).toBe(200);
      expect((await pollUntil(() => get(lightboxes, t.adminToken), 200)).status).toBe(200);
      const faceted = '/rest/asset-search?dateAddedLower=2000-01-01&facets=accessLevels,dateAdded:year';
      expect((await pollUntil(() => get(faceted, t.adminToken), 200)).status).toBe(200);
    });

    it('answers 503 to requests in flight when their connections are cut, then serves them again', async () => {
      const asset = await newAsset(level);
      proxy.freeze(); // MySQL hangs: the queries below wait for answers that do not come
      let answered = 0;
      const inFlight = Array.from({ length: 5 }, () =>
        get(asset, t.adminToken).then((response) => {
          answered += 1;
          return seen(response);
        }),
      );
      await sleep(500);
      expect(answered).toBe(0);
      const cutAt = Date.now();
      await proxy.stop();
      const answers = await Promise.all(inFlight);
      expect(answers.map((response) => response.status)).toEqual(Array(5).fill(503));
      expect(Date.now() - cutAt).toBeLessThan(FAST_MS);
      proxy.thaw();
      await proxy.start();
      expect((await pollUntil(() => get(asset, t.adminToken), 200)).status).toBe(200);
    });
  });

  describe('object store stopped', () => {
    const contentOf = async (asset: string): Promise<string> => {
      const redirect = await get(`${asset}/content`, t.adminToken).redirects(0).expect(303);
      const fetched = await fetchSigned(redirect.headers.location as string);
      expect(fetched.status).toBe(200);
      return fetched.body.toString();
    };
    const copyTempFile = (asset: string, tempFileUrl: string) =>
      t.http
        .put(`${asset}/content`)
        .auth(t.adminToken, { type: 'bearer' })
        .set('Content-Type', 'application/octet-stream')
        .set('Content-Disposition', 'attachment; filename="assembled.txt"')
        .set('X-Copy-Temp-Chunked-File', tempFileUrl);

    it('refuses uploads with a 503 while the store is down, keeps the previous content, and takes a retry', async () => {
      const asset = await newAsset(level);
      await upload(asset, t.adminToken, Buffer.from('the first content'), 'first.txt').expect(200);
      const tempFile = await post('/rest/temp-chunked-files', t.adminToken, {}).expect(201);
      const tempFileUrl = tempFile.headers.location as string;
      await t.http
        .put(`${pathOf(tempFileUrl)}/0`)
        .auth(t.adminToken, { type: 'bearer' })
        .set('Content-Type', 'application/octet-stream')
        .send(Buffer.from('from the temp file'))
        .expect(200);

      await store.pause();
      try {
        await expectUnavailable(
          () => upload(asset, t.adminToken, Buffer.from('the second content'), 'second.txt'),
          'PUT content',
        );
        // "Creating an asset with content": the asset row (database only) and its content from a temp file.
        const fresh = await newAsset(level);
        await expectUnavailable(() => copyTempFile(fresh, tempFileUrl), 'PUT content from a temp file');
        await expectUnavailable(
          () =>
            t.http
              .put(`${pathOf(tempFileUrl)}/1`)
              .auth(t.adminToken, { type: 'bearer' })
              .set('Content-Type', 'application/octet-stream')
              .send(Buffer.from('another chunk')),
          'PUT temp file chunk',
        );
        const health = seen(await t.http.get('/health'));
        expect(health.status).toBe(503);
        expect(health.body).toMatchObject({
          error: { storage: { status: 'down' } },
          info: { database: { status: 'up' } },
        });

        // Nothing points at content that was never stored.
        const versions = seen(await get(`${asset}/versions`, t.adminToken).expect(200));
        expect(versions.body).toHaveLength(1);
        expect(versions.body[0]).toMatchObject({ originalFilename: 'first.txt', fileSize: 17 });
        seen(await get(`${fresh}/content`, t.adminToken).redirects(0).expect(404));
        expect(seen(await get(`${fresh}/versions`, t.adminToken).expect(200)).body).toEqual([]);
      } finally {
        await store.resume();
      }

      expect((await pollUntil(() => t.http.get('/health'), 200)).status).toBe(200);
      expect(await contentOf(asset)).toBe('the first content');
      await upload(asset, t.adminToken, Buffer.from('the second content'), 'second.txt').expect(200);
      expect(await contentOf(asset)).toBe('the second content');
      expect(seen(await get(`${asset}/versions`, t.adminToken).expect(200)).body).toHaveLength(1);
      expect(await storedKeys(t, `assets/${asset.split('/').pop()}/`)).toHaveLength(1);

      const fresh = await newAsset(level);
      await copyTempFile(fresh, tempFileUrl).expect(200);
      expect(await contentOf(fresh)).toBe('from the temp file');
    });

    it('answers 503 within the storage timeout while the store hangs (accepts, never answers), then recovers by itself', async () => {
      const asset = await newAsset(level);
      await upload(asset, t.adminToken, Buffer.from('before the hang'), 'before.txt').expect(200);
      storeProxy.freeze();
      try {
        const started = Date.now();
        const response = seen(
          await upload(asset, t.adminToken, Buffer.from('during the hang'), 'during.txt'),
        );
        expect(response.status).toBe(503);
        expect(response.text).toBe(
          `the object store did not answer within ${TIMEOUT_MS} ms; the service is temporarily unavailable, try again shortly`,
        );
        expect(Date.now() - started).toBeLessThan(3 * TIMEOUT_MS);
      } finally {
        storeProxy.thaw();
      }
      const retried = await pollUntil(
        () => upload(asset, t.adminToken, Buffer.from('after the hang'), 'after.txt'),
        200,
      );
      expect(retried.status).toBe(200);
      expect(await contentOf(asset)).toBe('after the hang');
    });
  });

  describe('a statement past its deadline', () => {
    it('is stopped on the server (KILL QUERY), not left running after the 503', async () => {
      const dataSource = t.app.get(DataSource);
      const marker = `abandoned_${Date.now()}`;
      // A statement that never looks at its connection (as a long COUNT(*) or GROUP BY): about 100 s of
      // one core here, if nothing stops it. SLEEP would not do: MariaDB ends it when its client goes.
      const statement = `SELECT BENCHMARK(1000000000, SHA1('${marker}')) AS ${marker}`;
      // The server's list of statements, without this one's own (which names the marker too).
      const running = async () =>
        (
          (await dataSource.query(
            'SELECT ID AS id FROM information_schema.PROCESSLIST WHERE INFO LIKE ? AND ID <> CONNECTION_ID()',
            [`%${marker}%`],
          )) as Array<{ id: unknown }>
        ).map((row) => Number(row.id));
      try {
        await expect(dataSource.query(statement)).rejects.toThrow(
          `the database did not answer within ${TIMEOUT_MS} ms`,
        );
        const deadline = Date.now() + RECOVERY_MS;
        while ((await running()).length > 0 && Date.now() < deadline) await sleep(100);
        expect(await running()).toEqual([]);
      } finally {
        // Whatever happened, leave no statement burning a core of the shared server.
        for (const id of await running()) await dataSource.query(`KILL QUERY ${id}`);
      }
    });
  });

  describe('maintenance jobs', () => {
    it('lets a job statement outlast the request deadline (DAM_JOB_DATABASE_TIMEOUT_MS), while the same statement outside a job times out', async () => {
      const dataSource = t.app.get(DataSource);
      t.app.get(JobRegistry).register(new LongStatementJob(() => dataSource));
      await expect(dataSource.query(`SELECT SLEEP(${(TIMEOUT_MS + 1_000) / 1000})`)).rejects.toThrow(
        `the database did not answer within ${TIMEOUT_MS} ms`,
      );
      const started = await post('/rest/admin/jobs/test-long-statement/runs', t.adminToken, {}).expect(202);
      const location = pathOf(started.headers.location as string);
      const deadline = Date.now() + RECOVERY_MS;
      let run: Record<string, unknown> = {};
      while (Date.now() < deadline) {
        run = (await get(location, t.adminToken).expect(200)).body as Record<string, unknown>;
        if (run.status === 'succeeded' || run.status === 'failed') break;
        await sleep(250);
      }
      expect(run).toMatchObject({ status: 'succeeded', error: null, summary: { examined: 1 } });
    });
  });
});
