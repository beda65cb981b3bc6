import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import request from 'supertest';
import { fetchSigned } from './helpers/content-fixtures';
import { createTestDatabase, sqlOn, TestDatabase } from './helpers/databases';
import { testVideo } from './helpers/media-fixtures';
import { startObjectStore, TestObjectStore } from './helpers/object-store';
import { ServiceProcess } from './helpers/service-process';

jest.setTimeout(180_000);

/**
 * Issue 34, DAM_ROLE: an `api` process and a `worker` process on one MySQL database and one object store.
 * Uploads to the api process are answered there, their renditions are claimed through the database and
 * made by the worker alone; the worker serves no API. Two instances on one server: MariaDB leg only.
 */
describe('an api process and a rendition worker on one database', () => {
  let database: TestDatabase;
  let store: TestObjectStore;
  let api: ServiceProcess;
  let worker: ServiceProcess;
  let token: string;
  const clientId = 'rendition-workers';
  const clientSecret = randomBytes(18).toString('base64url');
  const sql = <T>(statement: string, values: unknown[] = []) => sqlOn<T>(database, statement, values);
  const on = (path: string) => request(api.baseUrl).get(path).auth(token, { type: 'bearer' });

  beforeAll(async () => {
    database = await createTestDatabase('mysql');
    store = await startObjectStore();
    // Both processes: one database, one store, one application client; only the role differs.
    const env = (role: string): Record<string, string> => ({
      ...store.env,
      DAM_ROLE: role,
      DATABASE_URL: database.databaseUrl ?? '',
      DAM_DATA_DIR: database.dataDir,
      DAM_RENDITION_POLL_MS: '200',
      DAM_CLIENT_SECRET: clientSecret,
      DAM_CLIENT_ID: clientId,
      DAM_JOBS_ENABLED: 'false',
      DAM_LOG_REQUESTS: 'false',
    });
    api = new ServiceProcess(env('api'));
    api.keepOutput = true;
    await api.start().catch((error: Error) => {
      throw new Error(
        `${error.message}: ${api.output
          .map(({ line }) => line)
          .join('\n')
          .slice(-2000)}`,
      );
    });
    worker = new ServiceProcess(env('worker'));
    worker.readyPath = '/health/live';
    await worker.start();
    token = await api.token(clientId, clientSecret);
  });
  afterAll(async () => {
    await Promise.all([api?.kill(), worker?.kill()]);
    await store?.stop();
    await database?.drop();
  });

  async function upload(body: Buffer, filename: string): Promise<string> {
    const level = await sql<{ id: number }>('SELECT id FROM access_levels ORDER BY id LIMIT 1');
    const created = await request(api.baseUrl)
      .post('/rest/assets')
      .auth(token, { type: 'bearer' })
      .send({ accessLevels: [{ id: level[0].id }] })
      .expect(201);
    const asset = new URL(created.headers.location as string).pathname;
    await request(api.baseUrl)
      .put(`${asset}/content`)
      .auth(token, { type: 'bearer' })
      .set('Content-Type', 'application/octet-stream')
      .set('Content-Disposition', `attachment; filename="${filename}"`)
      .send(body)
      .expect(200);
    return asset;
  }

  /** Polls until the rendition redirects (the worker makes it in the background). */
  async function waitFor(path: string): Promise<string> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const response = await on(path).redirects(0);
      if (response.status === 303) return response.headers.location as string;
      if (Date.now() > deadline) throw new Error(`${path} still answers ${response.status}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** The tasks left in the queue once it has emptied, or after 30 s (a task goes just after its renditions). */
  async function queuedTasks(): Promise<unknown[]> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const rows = await sql('SELECT id FROM rendition_tasks');
      if (rows.length === 0 || Date.now() > deadline) return rows;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** `dam_renditions_total{kind,outcome="made"}` of one process. */
  async function made(service: ServiceProcess, kind: string): Promise<number> {
    const text = (await request(service.baseUrl).get('/metrics').expect(200)).text;
    const match = new RegExp(`^dam_renditions_total\\{kind="${kind}",outcome="made"\\} (\\d+)$`, 'm').exec(
      text,
    );
    return match === null ? 0 : Number(match[1]);
  }

  it('makes the renditions of uploads to the api process in the worker alone, once each', async () => {
    const photo = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#3366cc' } })
      .jpeg()
      .toBuffer();
    const image = await upload(photo, 'photo.jpg');
    const video = await upload(testVideo({ seconds: 2 }), 'clip.mp4');
    const thumbnail = await fetchSigned(await waitFor(`${image}/thumbnail`));
    expect((await sharp(thumbnail.body).metadata()).width).toBe(150);
    await waitFor(`${video}/thumbnail`);
    const proxy = await fetchSigned(await waitFor(`${video}/preview-video`));
    expect(proxy.body.subarray(4, 8).toString('latin1')).toBe('ftyp');

    expect(await made(api, 'image')).toBe(0);
    expect(await made(api, 'video')).toBe(0);
    expect(await made(worker, 'image')).toBe(1);
    expect(await made(worker, 'video')).toBe(1);
    expect(await made(worker, 'video-proxy')).toBe(1);
    // Every task was claimed and finished: none is left in the queue.
    expect(await queuedTasks()).toEqual([]);
  });

  it('serves no API from the worker, only its health and metrics', async () => {
    const refused = await request(worker.baseUrl).get('/rest').expect(404);
    expect(refused.text).toMatch(/DAM_ROLE=worker/);
    await request(worker.baseUrl).get('/health/live').expect(200);
  });

  it('lets a dead worker’s claim expire: a task leased by a vanished holder is made once its lease passed', async () => {
    const photo = await sharp({ create: { width: 90, height: 60, channels: 3, background: '#cc3366' } })
      .png()
      .toBuffer();
    await worker.kill();
    const asset = await upload(photo, 'late.png');
    const [task] = await sql<{ id: number }>('SELECT id FROM rendition_tasks');
    // As if a worker had claimed it and died: its lease ends a second from now.
    await sql('UPDATE rendition_tasks SET holder = ?, lease_until = ?, attempts = 1 WHERE id = ?', [
      'dead-worker',
      new Date(Date.now() + 1000),
      task.id,
    ]);
    await worker.start();
    await waitFor(`${asset}/thumbnail`);
    expect(await queuedTasks()).toEqual([]);
  });
});
