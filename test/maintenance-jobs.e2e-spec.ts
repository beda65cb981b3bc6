import { JobContext, JobRegistry, MaintenanceJob } from '@dam/jobs';
import { DataSource } from 'typeorm';
import { runCli } from '../apps/cli/src/cli';
import { bearerRequests, itRefusesRequestsWithoutAToken, pathOf } from './helpers/bearer-requests';
import { TestApp, TestUser } from './helpers/test-app';

jest.setTimeout(60_000);

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A job the test holds open until `release()`; it checkpoints while it waits and records what it saw. */
class SlowJob extends MaintenanceJob {
  readonly name = 'test-slow';
  readonly defaultCron = 'off';
  readonly description = 'waits until the test releases it';
  sawDryRun: boolean[] = [];
  private gate: Promise<void> = Promise.resolve();
  private open: () => void = () => undefined;

  hold(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }

  release(): void {
    this.open();
  }

  async run(context: JobContext): Promise<void> {
    this.sawDryRun.push(context.dryRun);
    let released = false;
    void this.gate.then(() => (released = true));
    while (!released) {
      await context.checkpoint();
      await sleep(50);
    }
    context.summary.examined = 3;
    context.summary.reported = 1;
    if (!context.dryRun) context.summary.changed = 2;
    context.note('looked at three things');
  }
}

class QuickJob extends MaintenanceJob {
  readonly name = 'test-quick';
  readonly defaultCron = '0 0 1 1 *';
  readonly description = 'does nothing, quickly';
  async run(context: JobContext): Promise<void> {
    context.summary.examined = 1;
  }
}

class FailingJob extends MaintenanceJob {
  readonly name = 'test-failing';
  readonly defaultCron = 'off';
  readonly description = 'always fails';
  async run(): Promise<void> {
    throw new Error('the disk is on fire');
  }
}

describe('maintenance jobs API (DESIGN §10)', () => {
  let t: TestApp;
  let admin: TestUser;
  let user: TestUser;
  const slow = new SlowJob();
  const http = bearerRequests(() => t);

  beforeAll(async () => {
    t = await TestApp.start({ env: { DAM_JOB_TEST_QUICK_CRON: 'off' } });
    const registry = t.app.get(JobRegistry);
    for (const job of [slow, new QuickJob(), new FailingJob()]) registry.register(job);
    admin = await t.createUser({ admin: true });
    user = await t.createUser();
  });
  afterAll(async () => {
    slow.release();
    await t?.close();
  });

  /** Polls a run until it ended. */
  async function ended(location: string, token = t.adminToken): Promise<Record<string, unknown>> {
    for (let i = 0; i < 200; i++) {
      const run = (await http.get(pathOf(location), token).expect(200)).body as Record<string, unknown>;
      if (run.status === 'succeeded' || run.status === 'failed') return run;
      await sleep(50);
    }
    throw new Error(`${location} did not end`);
  }

  itRefusesRequestsWithoutAToken(
    () => t,
    [
      ['GET', '/rest/admin/jobs'],
      ['POST', '/rest/admin/jobs/test-quick/runs'],
      ['GET', '/rest/admin/jobs/test-quick/runs'],
      ['GET', '/rest/admin/jobs/test-quick/runs/1'],
    ],
  );

  it('refuses non-admins with 403', async () => {
    const list = await http.get('/rest/admin/jobs', user.token).expect(403);
    expect(list.text).toBe('only administrators may see maintenance jobs');
    const run = await http.post('/rest/admin/jobs/test-quick/runs', user.token, {}).expect(403);
    expect(run.text).toBe('only administrators may run maintenance jobs');
    await http.get('/rest/admin/jobs/test-quick/runs', user.token).expect(403);
    await http.get('/rest/admin/jobs/test-quick/runs/1', user.token).expect(403);
  });

  it('lists every registered job with its schedule, for admins and the application user', async () => {
    for (const token of [admin.token, t.adminToken]) {
      const jobs = (await http.get('/rest/admin/jobs', token).expect(200)).body as Array<
        Record<string, unknown>
      >;
      const byName = new Map(jobs.map((job) => [job.name, job]));
      expect(byName.get('purge-temp-files')).toMatchObject({
        schedule: '*/10 * * * *',
        enabled: true,
        scheduledHere: false,
        running: false,
        lastRun: null,
        url: t.rest('admin/jobs/purge-temp-files'),
      });
      expect(typeof byName.get('purge-temp-files')?.nextRunAt).toBe('string');
      // DAM_JOB_TEST_QUICK_CRON=off
      expect(byName.get('test-quick')).toMatchObject({ schedule: 'off', enabled: false, nextRunAt: null });
      expect(byName.get('test-slow')).toMatchObject({ description: 'waits until the test releases it' });
    }
  });

  it('answers 404 for an unknown job or run, 400 for a bad dryRun', async () => {
    await http.post('/rest/admin/jobs/no-such-job/runs', admin.token, {}).expect(404);
    await http.get('/rest/admin/jobs/no-such-job/runs', admin.token).expect(404);
    await http.get('/rest/admin/jobs/test-quick/runs/999999', admin.token).expect(404);
    await http.get('/rest/admin/jobs/test-quick/runs/abc', admin.token).expect(404);
    await http.post('/rest/admin/jobs/test-quick/runs?dryRun=maybe', admin.token, {}).expect(400);
  });

  it('starts a run: 202 with Location; 409 while it goes on; polling shows it succeed with its summary', async () => {
    slow.hold();
    const started = await http.post('/rest/admin/jobs/test-slow/runs', admin.token, {}).expect(202);
    const location = started.headers.location as string;
    expect(location).toBe(t.rest(`admin/jobs/test-slow/runs/${String(started.body.id)}`));
    expect(started.body).toMatchObject({
      job: 'test-slow',
      status: 'queued',
      dryRun: false,
      trigger: 'manual',
      finishedAt: null,
      error: null,
      url: location,
    });

    const conflict = await http.post('/rest/admin/jobs/test-slow/runs', admin.token, {}).expect(409);
    expect(conflict.text).toBe('job test-slow is already running');
    // Running, in the list and in the run itself.
    await sleep(200);
    const listed = (await http.get('/rest/admin/jobs', admin.token).expect(200)).body as Array<
      Record<string, unknown>
    >;
    expect(listed.find((job) => job.name === 'test-slow')).toMatchObject({
      running: true,
      lastRun: { id: started.body.id, status: 'running' },
    });
    expect((await http.get(pathOf(location), admin.token).expect(200)).body.status).toBe('running');

    slow.release();
    const run = await ended(location);
    expect(run).toMatchObject({
      id: started.body.id,
      job: 'test-slow',
      status: 'succeeded',
      dryRun: false,
      summary: { examined: 3, changed: 2, reported: 1, details: ['looked at three things'] },
      error: null,
      url: location,
    });
    expect(typeof run.startedAt).toBe('string');
    expect(Date.parse(run.finishedAt as string)).toBeGreaterThanOrEqual(Date.parse(run.startedAt as string));
    // Free again.
    await http.post('/rest/admin/jobs/test-quick/runs', admin.token, {}).expect(202);
  });

  it('records a dry run as one, and the job sees it', async () => {
    slow.sawDryRun = [];
    const started = await http
      .post('/rest/admin/jobs/test-slow/runs?dryRun=true', admin.token, {})
      .expect(202);
    expect(started.body.dryRun).toBe(true);
    const run = await ended(started.headers.location as string);
    expect(run).toMatchObject({ status: 'succeeded', dryRun: true, summary: { changed: 0, reported: 1 } });
    expect(slow.sawDryRun).toEqual([true]);
  });

  it('records a failed run with its error', async () => {
    const started = await http.post('/rest/admin/jobs/test-failing/runs', t.adminToken, {}).expect(202);
    const run = await ended(started.headers.location as string);
    expect(run).toMatchObject({ status: 'failed', error: 'the disk is on fire' });
  });

  it('fails a run whose instance died (open, lease expired) when noticed; the next run proceeds', async () => {
    const dataSource = t.app.get(DataSource);
    const past = new Date(Math.floor(Date.now() / 1000) * 1000 - 120_000);
    await dataSource
      .createQueryBuilder()
      .insert()
      .into('job_runs')
      .values({
        job: 'test-quick',
        status: 'running',
        dry_run: false,
        trigger_kind: 'schedule',
        slot: null,
        holder: 'a-dead-instance',
        queued_at: past,
        started_at: past,
      })
      .execute();
    await dataSource
      .createQueryBuilder()
      .insert()
      .into('job_leases')
      .values({ name: 'test-quick', holder: 'a-dead-instance', expires_at: past })
      .orIgnore()
      .execute();
    await dataSource
      .createQueryBuilder()
      .update('job_leases')
      .set({ holder: 'a-dead-instance', expires_at: past })
      .where("name = 'test-quick'")
      .execute();
    const started = await http.post('/rest/admin/jobs/test-quick/runs', admin.token, {}).expect(202);
    expect((await ended(started.headers.location as string)).status).toBe('succeeded');
    const runs = (await http.get('/rest/admin/jobs/test-quick/runs', admin.token).expect(200)).body as Array<
      Record<string, unknown>
    >;
    expect(runs.find((run) => run.status === 'failed')).toMatchObject({
      error: 'the instance running it stopped',
      trigger: 'schedule',
    });
  });

  it('pages the runs newest first with X-Total-Count and Link', async () => {
    for (let i = 0; i < 4; i++) {
      const started = await http.post('/rest/admin/jobs/test-failing/runs', admin.token, {}).expect(202);
      await ended(started.headers.location as string);
    }
    const all = await http.get('/rest/admin/jobs/test-failing/runs', admin.token).expect(200);
    const ids = (all.body as Array<{ id: number }>).map((run) => run.id);
    expect(ids).toHaveLength(5);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const page = await http
      .get('/rest/admin/jobs/test-failing/runs?page=1&pageSize=2', admin.token)
      .expect(200);
    expect((page.body as Array<{ id: number }>).map((run) => run.id)).toEqual(ids.slice(2, 4));
    expect(page.headers['x-total-count']).toBe('5');
    const link = page.headers.link as string;
    expect(link).toContain(`<${t.rest('admin/jobs/test-failing/runs')}?page=0&pageSize=2>; rel="first"`);
    expect(link).toContain('page=2&pageSize=2>; rel="next"');
    expect(link).toContain('page=2&pageSize=2>; rel="last"');
  });

  it('answers XML when asked (<jobs><job>, <jobRun>)', async () => {
    const list = await http.get('/rest/admin/jobs', admin.token).set('Accept', 'application/xml').expect(200);
    expect(list.text).toMatch(/<jobs[^>]*>\s*<job>/);
    const started = await http
      .post('/rest/admin/jobs/test-quick/runs', admin.token, {})
      .set('Accept', 'application/xml')
      .expect(202);
    expect(started.text).toMatch(/<jobRun[^>]*>[\s\S]*<job>test-quick<\/job>/);
  });

  it('the CLI lists the jobs and runs one (exit 1 when the run fails)', async () => {
    const env: Record<string, string> = { DAM_DATA_DIR: t.config.dataDir, DAM_DATABASE_CONNECT_RETRIES: '0' };
    if (t.config.databaseUrl !== undefined) env.DATABASE_URL = t.config.databaseUrl;
    if (t.config.minio !== undefined) {
      Object.assign(env, {
        STORAGE_DRIVER: 'minio',
        MINIO_ENDPOINT: t.config.minio.endPoint,
        MINIO_PORT: String(t.config.minio.port ?? ''),
        MINIO_USE_SSL: String(t.config.minio.useSSL),
        MINIO_ACCESS_KEY: t.config.minio.accessKey,
        MINIO_SECRET_KEY: t.config.minio.secretKey,
        MINIO_BUCKET: t.config.minio.bucket,
      });
    }
    env.DAM_CLIENT_ID = t.clientId;
    env.DAM_CLIENT_SECRET = t.clientSecret;
    const cli = async (...argv: string[]) => {
      const stdout: string[] = [];
      const stderr: string[] = [];
      const code = await runCli(argv, { env, stdout: (l) => stdout.push(l), stderr: (l) => stderr.push(l) });
      return { code, stdout, stderr };
    };
    const listed = await cli('jobs:list');
    expect(listed.code).toBe(0);
    expect(listed.stdout.some((line) => /^purge-temp-files\s+\*\/10 \* \* \* \*\s+/.test(line))).toBe(true);
    const json = await cli('jobs:list', '--json');
    expect(JSON.parse(json.stdout.join('\n'))).toContainEqual(
      expect.objectContaining({ name: 'purge-temp-files', schedule: '*/10 * * * *', enabled: true }),
    );

    const dry = await cli('jobs:run', 'purge-temp-files', '--dry-run', '--wait');
    expect(dry).toMatchObject({ code: 0, stderr: [] });
    expect(dry.stdout[0]).toMatch(/^run \d+ of purge-temp-files started \(dry run\)$/);
    expect(dry.stdout[1]).toMatch(/^run \d+ succeeded: examined \d+, changed 0, reported \d+$/);
    const runId = /^run (\d+)/.exec(dry.stdout[0])?.[1];
    const recorded = await http
      .get(`/rest/admin/jobs/purge-temp-files/runs/${runId}`, admin.token)
      .expect(200);
    expect(recorded.body).toMatchObject({ status: 'succeeded', dryRun: true });

    const asJson = await cli('jobs:run', 'purge-temp-files', '--json');
    expect(asJson.code).toBe(0);
    expect(JSON.parse(asJson.stdout.join('\n'))).toMatchObject({
      job: 'purge-temp-files',
      status: 'succeeded',
    });

    expect(await cli('jobs:run', 'no-such-job')).toMatchObject({
      code: 1,
      stderr: ['there is no job no-such-job'],
    });
    expect((await cli('jobs:run')).code).toBe(2);
    expect((await cli('jobs:run', 'a', 'b')).code).toBe(2);
    expect((await cli('jobs:run', 'purge-temp-files', '--bogus')).code).toBe(2);
  });
});
