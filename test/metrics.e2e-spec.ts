import { JobRegistry, MaintenanceJob } from '@dam/jobs';
import { randomBytes } from 'node:crypto';
import { bearerRequests, pathOf } from './helpers/bearer-requests';
import { contentRequests } from './helpers/content-fixtures';
import { createTestDatabase, MATRIX, TestDatabase } from './helpers/databases';
import { startObjectStore, TestObjectStore } from './helpers/object-store';
import { defaultAccessLevelId } from './helpers/permission-fixtures';
import { TestApp } from './helpers/test-app';

jest.setTimeout(60_000);

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The value of one sample of Prometheus' text format (labels as written, in order), or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(\{(.*)\})? (\S+)$/.exec(line);
    if (match === null || match[1] !== name) continue;
    const present = (match[3] ?? '').split(',').filter((pair) => pair !== '');
    if (Object.entries(labels).every(([key, value]) => present.includes(`${key}="${value}"`))) {
      return Number(match[4]);
    }
  }
  return undefined;
}

class QuickJob extends MaintenanceJob {
  readonly name = 'metrics-quick';
  readonly defaultCron = 'off';
  readonly description = 'succeeds at once';
  async run(): Promise<void> {}
}

class FailingJob extends MaintenanceJob {
  readonly name = 'metrics-failing';
  readonly defaultCron = 'off';
  readonly description = 'always fails';
  async run(): Promise<void> {
    throw new Error('no luck');
  }
}

/** Issue 16: `GET /metrics` in Prometheus' text format, one registry per application instance. */
describe('metrics', () => {
  let database: TestDatabase;
  let store: TestObjectStore | undefined;
  let t: TestApp;
  const http = bearerRequests(() => t);
  const { newAsset, upload } = contentRequests(() => t);
  const scrape = async (app = t) => {
    const response = await app.http.get('/metrics').expect(200);
    return response.text;
  };

  beforeAll(async () => {
    database = await createTestDatabase(MATRIX, { migrated: true });
    store = MATRIX === 'mysql' ? await startObjectStore() : undefined;
    t = await TestApp.start({ database, objectStore: store });
    const registry = t.app.get(JobRegistry);
    registry.register(new QuickJob());
    registry.register(new FailingJob());
  });
  afterAll(async () => {
    await t?.close();
    await store?.stop();
    await database?.drop();
  });

  it('is public without DAM_METRICS_TOKEN and speaks the text format, with process and pool metrics', async () => {
    const response = await t.http.get('/metrics').set('Accept', 'application/xml').expect(200);
    expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = response.text;
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect([name, sample(text, name)]).toEqual([name, expect.any(Number)]);
    }
    // The scrape itself is in flight.
    expect(sample(text, 'http_requests_in_flight')).toBeGreaterThanOrEqual(1);
    const max = sample(text, 'db_pool_max_connections');
    expect(max).toBe(MATRIX === 'mysql' ? 20 : 1);
    const open = sample(text, 'db_pool_connections', { state: 'open' }) ?? -1;
    expect(open).toBeGreaterThanOrEqual(1);
    expect(open).toBeLessThanOrEqual(max ?? 0);
    expect(sample(text, 'db_pool_connections', { state: 'waiting' })).toBe(0);
    expect(
      (sample(text, 'db_pool_connections', { state: 'idle' }) ?? 0) +
        (sample(text, 'db_pool_connections', { state: 'in_use' }) ?? 0),
    ).toBe(open);
  });

  it('times requests by method, route pattern and status, never by raw URL', async () => {
    const level = await defaultAccessLevelId(t);
    const asset = await newAsset(level);
    await http.get(asset, t.adminToken).expect(200);
    await http.get(asset, t.adminToken).expect(200);
    await http.get('/rest/assets/999999', t.adminToken).expect(404);
    await t.http.get('/no/such/path/42').expect(404);
    const text = await scrape();
    const count = (status: string, route = '/rest/assets/:id') =>
      sample(text, 'http_request_duration_seconds_count', { method: 'GET', route, status });
    expect(count('200')).toBe(2);
    expect(count('404')).toBe(1);
    expect(count('404', '(unmatched)')).toBe(1);
    expect(
      sample(text, 'http_request_duration_seconds_bucket', {
        method: 'GET',
        route: '/rest/assets/:id',
        status: '200',
        le: '+Inf',
      }),
    ).toBe(2);
    expect(text).not.toContain(asset);
    expect(text).not.toContain('/no/such/path');
  });

  it('counts the body bytes uploaded and downloaded, by route', async () => {
    const level = await defaultAccessLevelId(t);
    const asset = await newAsset(level);
    const before = await scrape();
    const route = { route: '/rest/assets/:id/content' };
    const body = randomBytes(300_000);
    await upload(asset, t.adminToken, body).expect(200);
    const me = await http.get('/rest/authenticated-user', t.adminToken).expect(200);
    const me2 = await http.get('/rest/authenticated-user', t.adminToken).expect(200);
    const after = await scrape();
    const uploaded = (text: string) => sample(text, 'http_uploaded_bytes_total', route) ?? 0;
    expect(uploaded(after) - uploaded(before)).toBe(body.length);
    const downloaded = (text: string) =>
      sample(text, 'http_downloaded_bytes_total', { route: '/rest/authenticated-user' }) ?? 0;
    expect(downloaded(after) - downloaded(before)).toBe(
      Buffer.byteLength(me.text) + Buffer.byteLength(me2.text),
    );
  });

  it('counts job runs and failures per job, and the last success, from the record for a new instance', async () => {
    const before = await scrape();
    // Every registered job has its series from the start.
    expect(sample(before, 'dam_job_runs_total', { job: 'purge-expired-tokens', status: 'succeeded' })).toBe(
      0,
    );
    expect(sample(before, 'dam_job_failures_total', { job: 'purge-expired-tokens' })).toBe(0);

    const ended = async (name: string) => {
      const started = await http.post(`/rest/admin/jobs/${name}/runs`, t.adminToken, {}).expect(202);
      for (let i = 0; i < 200; i++) {
        const run = (await http.get(pathOf(started.headers.location as string), t.adminToken).expect(200))
          .body as { status: string; finishedAt: string };
        if (run.status === 'succeeded' || run.status === 'failed') return run;
        await sleep(50);
      }
      throw new Error(`${name} did not end`);
    };
    const quick = await ended('metrics-quick');
    await ended('metrics-quick');
    expect((await ended('metrics-failing')).status).toBe('failed');
    const text = await scrape();
    expect(sample(text, 'dam_job_runs_total', { job: 'metrics-quick', status: 'succeeded' })).toBe(2);
    expect(sample(text, 'dam_job_runs_total', { job: 'metrics-failing', status: 'failed' })).toBe(1);
    expect(sample(text, 'dam_job_failures_total', { job: 'metrics-failing' })).toBe(1);
    expect(sample(text, 'dam_job_failures_total', { job: 'metrics-quick' })).toBeUndefined();
    const lastSuccess = sample(text, 'dam_job_last_success_timestamp_seconds', { job: 'metrics-quick' }) ?? 0;
    expect(Math.abs(lastSuccess - Date.parse(quick.finishedAt) / 1000)).toBeLessThan(5);
    expect(
      sample(text, 'dam_job_last_success_timestamp_seconds', { job: 'metrics-failing' }),
    ).toBeUndefined();

    // A second instance on the same database: its own registry (no runs here), the last success from
    // job_runs. Its registry knows the built-in jobs; run one on the first instance, then boot the second.
    const purge = await ended('purge-expired-tokens');
    expect(purge.status).toBe('succeeded');
    const second = await TestApp.start({ database, objectStore: store });
    try {
      const fresh = await scrape(second);
      expect(sample(fresh, 'dam_job_runs_total', { job: 'purge-expired-tokens', status: 'succeeded' })).toBe(
        0,
      );
      const seeded =
        sample(fresh, 'dam_job_last_success_timestamp_seconds', { job: 'purge-expired-tokens' }) ?? 0;
      expect(Math.abs(seeded - Date.parse(purge.finishedAt) / 1000)).toBeLessThan(1.5);
      expect(
        sample(fresh, 'http_request_duration_seconds_count', {
          method: 'GET',
          route: '/rest/assets/:id',
          status: '200',
        }),
      ).toBeUndefined();
    } finally {
      await second.close();
    }
  });
});

describe('metrics: DAM_METRICS_TOKEN', () => {
  let t: TestApp;
  const token = randomBytes(24).toString('base64url');

  beforeAll(async () => {
    t = await TestApp.start({ env: { DAM_METRICS_TOKEN: token } });
  });
  afterAll(() => t?.close());

  it('answers 401 in plain text without it, with another bearer token or a wrong one, and 200 with it', async () => {
    const user = await t.createUser();
    for (const authorization of [
      undefined,
      `Bearer ${user.token}`,
      `Bearer ${token}x`,
      `Basic ${token}`,
      token,
    ]) {
      const request = t.http.get('/metrics');
      const response = await (authorization === undefined
        ? request
        : request.set('Authorization', authorization));
      expect([authorization, response.status]).toEqual([authorization, 401]);
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
      expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(response.text).not.toContain('http_request');
    }
    const response = await t.http.get('/metrics').auth(token, { type: 'bearer' }).expect(200);
    expect(response.text).toContain('http_request_duration_seconds');
  });
});
