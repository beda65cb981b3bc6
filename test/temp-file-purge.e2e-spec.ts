import { DiscoveryService } from '@nestjs/core';
import { SchedulerRegistry } from '@nestjs/schedule';
import { AppConfig } from '@dam/core';
import { JobRegistry, JobRunner, LeaseService } from '@dam/jobs';
import { TempChunkedFilesService, TempFilePurgeJob } from '@dam/temp-chunked-files';
import { DataSource } from 'typeorm';
import { runCli } from '../apps/cli/src/cli';
import { bearerRequests, pathOf } from './helpers/bearer-requests';
import { storedKeys } from './helpers/stored-keys';
import { TestApp, TestUser } from './helpers/test-app';

jest.setTimeout(60_000);

const HOUR = 3_600_000;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The environment of the running test app, as the CLI would be given it by an operator. */
function cliEnv(config: AppConfig): Record<string, string> {
  const env: Record<string, string> = { DAM_DATA_DIR: config.dataDir, DAM_DATABASE_CONNECT_RETRIES: '0' };
  if (config.databaseUrl !== undefined) env.DATABASE_URL = config.databaseUrl;
  if (config.minio !== undefined) {
    Object.assign(env, {
      STORAGE_DRIVER: 'minio',
      MINIO_ENDPOINT: config.minio.endPoint,
      MINIO_PORT: String(config.minio.port ?? ''),
      MINIO_USE_SSL: String(config.minio.useSSL),
      MINIO_ACCESS_KEY: config.minio.accessKey,
      MINIO_SECRET_KEY: config.minio.secretKey,
      MINIO_BUCKET: config.minio.bucket,
    });
  }
  return env;
}

describe('temp chunked file purge', () => {
  let t: TestApp;
  let user: TestUser;
  let service: TempChunkedFilesService;
  const http = bearerRequests(() => t);

  beforeAll(async () => {
    t = await TestApp.start({ env: { DAM_TEMP_FILE_TTL_HOURS: '1' } });
    user = await t.createUser();
    service = t.app.get(TempChunkedFilesService);
  });
  afterAll(() => t?.close());

  async function createFileWithChunk(): Promise<{ id: string; path: string }> {
    const created = await http.post('/rest/temp-chunked-files', user.token, {}).expect(201);
    const path = pathOf(created.headers.location as string);
    await putChunk(path, 0, 'chunk zero');
    return { id: created.body.id as string, path };
  }

  async function putChunk(path: string, index: number, text: string): Promise<void> {
    await t.http
      .put(`${path}/${index}`)
      .auth(user.token, { type: 'bearer' })
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.from(text))
      .expect(200);
  }

  const objectCount = async (id: string): Promise<number> => (await storedKeys(t, `temp/${id}/`)).length;

  it('removes only files untouched for the TTL, with their objects; a chunk upload or read counts as a touch', async () => {
    const stale = await createFileWithChunk();
    const touchedByPut = await createFileWithChunk();
    const touchedByGet = await createFileWithChunk();
    // MySQL datetime keeps whole seconds: leave a clear gap between "old" and "recent".
    await sleep(2_500);
    const recentFrom = Date.now() - 1_000;
    await putChunk(touchedByPut.path, 1, 'chunk one');
    await http.get(touchedByGet.path, user.token).expect(200);
    const fresh = await createFileWithChunk();

    // One hour (the TTL) after the recent touches, only `stale` has been untouched that long.
    expect(await service.purgeStale(new Date(recentFrom + HOUR))).toBe(1);
    await http.get(stale.path, user.token).expect(404);
    expect(await objectCount(stale.id)).toBe(0);
    for (const kept of [touchedByPut, touchedByGet, fresh]) {
      await http.get(kept.path, user.token).expect(200);
      expect(await objectCount(kept.id)).toBeGreaterThan(0);
    }
    expect(await service.purgeStale(new Date())).toBe(0);
  });

  it('also removes objects left behind by files whose row is gone', async () => {
    const file = await createFileWithChunk();
    await t.app.get(DataSource).query('DELETE FROM temp_chunked_files WHERE id = ?', [file.id]);
    expect(await objectCount(file.id)).toBe(1);
    await service.purgeStale(new Date());
    expect(await objectCount(file.id)).toBe(0);
  });

  it('the scheduled job purges on only one of two instances firing at once', async () => {
    const file = await createFileWithChunk();
    let purges = 0;
    const counting = {
      staleIds: async () => [],
      purgeStale: async (now: Date): Promise<number> => {
        purges += 1;
        await sleep(200); // both instances are inside their run at once
        return service.purgeStale(new Date(now.getTime() + 2 * HOUR));
      },
    } as unknown as TempChunkedFilesService;
    const dataSource = t.app.get(DataSource);
    const enabled = { ...t.config, jobsEnabled: true, tempFilePurgeIntervalSeconds: 60 } as AppConfig;
    // Two instances: each its own lease holder and registry, one database.
    const store = (t.app.get(JobRunner) as unknown as { store: ConstructorParameters<typeof JobRunner>[2] })
      .store;
    const noProviders = { getProviders: () => [] } as unknown as DiscoveryService;
    const runners = [0, 1].map(() => {
      const registry = new JobRegistry(noProviders);
      registry.register(new TempFilePurgeJob(counting, enabled));
      return new JobRunner(registry, new LeaseService(dataSource, enabled), store, enabled);
    });
    const moment = Date.now();
    const ran = await Promise.all(runners.map((runner) => runner.runScheduled('purge-temp-files', moment)));
    expect(ran.filter((run) => run !== undefined)).toHaveLength(1);
    expect(ran.find((run) => run !== undefined)?.status).toBe('succeeded');
    expect(purges).toBe(1);
    await http.get(file.path, user.token).expect(404);
    // The same moment again (a late timer): already run, skipped.
    expect(await runners[0].runScheduled('purge-temp-files', moment)).toBeUndefined();
    expect(purges).toBe(1);
  });

  it('is not scheduled where DAM_JOBS_ENABLED is false (as in this test app), but runs on demand', async () => {
    const schedules = t.app.get(SchedulerRegistry);
    expect(schedules.getTimeouts()).not.toContain('job:purge-temp-files');
    expect([...schedules.getCronJobs().keys()]).not.toContain('job:purge-temp-files');
    const stale = await createFileWithChunk();
    await t.app
      .get(DataSource)
      .createQueryBuilder()
      .update('temp_chunked_files')
      .set({ touchedAt: new Date(Date.now() - 3 * HOUR) })
      .where('id = :id', { id: stale.id })
      .execute();
    const dry = await (await t.app.get(JobRunner).trigger('purge-temp-files', true)).done;
    expect(dry).toMatchObject({ status: 'succeeded', dryRun: true });
    expect(dry.summary).toMatchObject({
      changed: 0,
      reported: 1,
      details: [`would remove temp file ${stale.id}`],
    });
    expect(await objectCount(stale.id)).toBe(1); // kept (read through the API it would count as a touch)
    const run = await (await t.app.get(JobRunner).trigger('purge-temp-files', false)).done;
    expect(run).toMatchObject({ status: 'succeeded', dryRun: false });
    expect(run.summary).toMatchObject({ changed: 1, details: [`removed temp file ${stale.id}`] });
    await http.get(stale.path, user.token).expect(404);
  });

  it('the CLI command purge-temp-files removes stale files and reports how many', async () => {
    const stale = await createFileWithChunk();
    const kept = await createFileWithChunk();
    const longAgo = new Date(Date.now() - 3 * HOUR);
    await t.app
      .get(DataSource)
      .createQueryBuilder()
      .update('temp_chunked_files')
      .set({ touchedAt: longAgo })
      .where('id = :id', { id: stale.id })
      .execute();
    const stdout: string[] = [];
    const stderr: string[] = [];
    const code = await runCli(['purge-temp-files'], {
      env: { ...cliEnv(t.config), DAM_TEMP_FILE_TTL_HOURS: '1' },
      stdout: (line) => stdout.push(line),
      stderr: (line) => stderr.push(line),
    });
    expect({ code, stderr }).toEqual({ code: 0, stderr: [] });
    expect(stdout).toEqual(['removed 1 temp chunked file untouched for 1 h']);
    await http.get(stale.path, user.token).expect(404);
    expect(await objectCount(stale.id)).toBe(0);
    await http.get(kept.path, user.token).expect(200);
  });
});
