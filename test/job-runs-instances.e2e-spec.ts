import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { createTestDatabase, sqlOn, TestDatabase } from './helpers/databases';
import { startObjectStore, TestObjectStore } from './helpers/object-store';
import { ServiceProcess } from './helpers/service-process';
import { FROM_SOURCES } from './helpers/from-sources';

jest.setTimeout(120_000);

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const PERIOD_S = 2;

/**
 * Maintenance jobs across instances (DESIGN §10), with two API processes on one MySQL database (like
 * two-instances.e2e-spec.ts; MySQL and S3 whatever DAM_TEST_MATRIX says). Each runs
 * test/helpers/slow-job-main.ts: the API plus the test jobs `test-tick` and `test-slow`.
 */
describe('maintenance jobs on two instances', () => {
  let database: TestDatabase;
  let store: TestObjectStore;
  let a: ServiceProcess;
  let b: ServiceProcess;
  let token: string;
  const clientId = 'job-runs';
  const clientSecret = randomBytes(18).toString('base64url');
  const releaseFile = () => path.join(database.dataDir, 'release-slow-job');
  const sql = <T>(statement: string, values: unknown[] = []) => sqlOn<T>(database, statement, values);
  const on = (service: ServiceProcess) => ({
    get: (p: string) => request(service.baseUrl).get(p).auth(token, { type: 'bearer' }),
    post: (p: string) => request(service.baseUrl).post(p).auth(token, { type: 'bearer' }).send({}),
  });

  beforeAll(async () => {
    database = await createTestDatabase('mysql', { migrated: true });
    store = await startObjectStore();
    const env: Record<string, string> = {
      DATABASE_URL: database.databaseUrl ?? '',
      DAM_DATA_DIR: database.dataDir,
      DAM_CLIENT_ID: clientId,
      DAM_CLIENT_SECRET: clientSecret,
      DAM_PUBLIC_URL: 'http://dam.test',
      DAM_LOG_REQUESTS: 'false',
      DAM_DATABASE_CONNECT_RETRIES: '0',
      DAM_JOBS_ENABLED: 'true',
      DAM_JOB_TEST_TICK_CRON: `*/${PERIOD_S} * * * * *`,
      DAM_JOB_LEASE_TTL_SECONDS: '2',
      SLOW_JOB_RELEASE_FILE: path.join(database.dataDir, 'release-slow-job'),
      NO_COLOR: '1',
      ...store.env,
    };
    const program = {
      args: [...FROM_SOURCES, 'test/helpers/slow-job-main.ts'],
      readyPath: '/health',
    };
    [a, b] = [new ServiceProcess(env, false, program), new ServiceProcess(env, false, program)];
    await Promise.all([a.start(), b.start()]);
    token = await a.token(clientId, clientSecret);
  });
  afterAll(async () => {
    await Promise.all([a?.kill(), b?.kill()]);
    await store?.stop();
    await database?.drop();
  });

  it('runs a job scheduled on both instances once per scheduled moment', async () => {
    const from = new Date(Math.ceil(Date.now() / 1000) * 1000);
    await sleep(5 * PERIOD_S * 1000 + 500);
    const runs = await sql<{ slot: string; holder: string; status: string }>(
      "SELECT slot, holder, status FROM job_runs WHERE job = 'test-tick' AND queued_at >= ? ORDER BY id",
      [from],
    );
    // Five moments in the window (four to six with the edges), each run once, by either instance.
    expect(runs.length).toBeGreaterThanOrEqual(4);
    expect(runs.length).toBeLessThanOrEqual(6);
    expect(new Set(runs.map((run) => run.slot)).size).toBe(runs.length);
    expect(runs.every((run) => run.status === 'succeeded')).toBe(true);
    const moments = runs.map((run) => Date.parse(run.slot.split('@')[1]));
    expect(moments.every((moment) => moment % (PERIOD_S * 1000) === 0)).toBe(true);
  });

  it('fails a run whose instance was killed mid-run; the next run succeeds', async () => {
    const started = await on(a).post('/rest/admin/jobs/test-slow/runs').expect(202);
    const runPath = new URL(started.headers.location as string).pathname;
    // Going, and known as such on the other instance: 409 there too.
    await sleep(500);
    expect((await on(b).get(runPath).expect(200)).body.status).toBe('running');
    const conflict = await on(b).post('/rest/admin/jobs/test-slow/runs').expect(409);
    expect(conflict.text).toBe('job test-slow is already running');

    await a.kill();
    writeFileSync(releaseFile(), 'go');
    // Once the dead instance's lease expired (2 s), the next run starts and the dead one is failed.
    const deadline = Date.now() + 20_000;
    let next: request.Response;
    for (;;) {
      next = await on(b).post('/rest/admin/jobs/test-slow/runs');
      if (next.status === 202 || Date.now() > deadline) break;
      expect(next.status).toBe(409);
      await sleep(250);
    }
    expect(next.status).toBe(202);
    const dead = (await on(b).get(runPath).expect(200)).body;
    expect(dead).toMatchObject({ status: 'failed', error: 'the instance running it stopped' });
    const nextPath = new URL(next.headers.location as string).pathname;
    for (let i = 0; i < 100; i++) {
      const run = (await on(b).get(nextPath).expect(200)).body;
      if (run.status !== 'queued' && run.status !== 'running') break;
      await sleep(100);
    }
    expect((await on(b).get(nextPath).expect(200)).body).toMatchObject({ status: 'succeeded', error: null });
  });
});
