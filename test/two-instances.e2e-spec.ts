import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { fetchSigned, sha256 } from './helpers/content-fixtures';
import { createTestDatabase, sqlOn, TestDatabase } from './helpers/databases';
import { startObjectStore, TestObjectStore } from './helpers/object-store';
import { pseudoRandomBlocks } from './helpers/raw-http';
import { ServiceProcess } from './helpers/service-process';

jest.setTimeout(120_000);

/** The temp-file purge period of both instances (DAM_TEMP_FILE_PURGE_INTERVAL_SECONDS). */
const PERIOD_MS = 2_000;
/** The job lease's TTL (DAM_JOB_LEASE_TTL_SECONDS), renewed every third of it while a run goes on. */
const LEASE_TTL_MS = 2_000;
const MiB = 1024 * 1024;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The runs of the purge job an instance logged ("job purge-temp-files ran on <holder> in N ms ..."), with
 * when each started (the line comes at its end).
 */
function purgeRuns(service: ServiceProcess): Array<{ at: number; started: number; holder: string }> {
  return service.output.flatMap(({ at, line }) => {
    const match = /job purge-temp-files ran on (\S+) in (\d+) ms/.exec(line);
    return match === null ? [] : [{ at, started: at - Number(match[2]), holder: match[1] }];
  });
}

/**
 * Issue 8: two API processes side by side on one MySQL database and one object store, as behind a load
 * balancer (DESIGN §11). Inherently about MySQL and S3, so this file uses them whatever DAM_TEST_MATRIX says.
 */
describe('two API instances on one database and one object store', () => {
  let database: TestDatabase;
  let store: TestObjectStore;
  let a: ServiceProcess;
  let b: ServiceProcess;
  let token: string;
  const clientId = 'two-instances';
  const clientSecret = randomBytes(18).toString('base64url');
  const on = (service: ServiceProcess) => ({
    get: (path: string) => request(service.baseUrl).get(path).auth(token, { type: 'bearer' }),
    post: (path: string, body: object) =>
      request(service.baseUrl).post(path).auth(token, { type: 'bearer' }).send(body),
    put: (path: string) => request(service.baseUrl).put(path).auth(token, { type: 'bearer' }),
  });
  const sql = <T>(statement: string, values: unknown[] = []) => sqlOn<T>(database, statement, values);

  beforeAll(async () => {
    database = await createTestDatabase('mysql');
    store = await startObjectStore();
    const env: Record<string, string> = {
      DATABASE_URL: database.databaseUrl ?? '',
      DAM_DATA_DIR: database.dataDir,
      DAM_CLIENT_ID: clientId,
      DAM_CLIENT_SECRET: clientSecret,
      // Behind one load balancer the instances share the public origin, and URLs handed out by one
      // (a temp file's Location) must be accepted by the other as URLs of this service.
      DAM_PUBLIC_URL: 'http://dam.test',
      DAM_LOG_REQUESTS: 'false',
      DAM_DATABASE_CONNECT_RETRIES: '0',
      DAM_JOBS_ENABLED: 'true',
      DAM_TEMP_FILE_PURGE_INTERVAL_SECONDS: String(PERIOD_MS / 1000),
      // The instance killed below may die in the middle of a run, holding the job's lease: it must expire
      // within the test's wait (the default is 60 s).
      DAM_JOB_LEASE_TTL_SECONDS: String(LEASE_TTL_MS / 1000),
      NO_COLOR: '1',
      ...store.env,
    };
    [a, b] = [new ServiceProcess(env), new ServiceProcess(env)];
    a.keepOutput = true;
    b.keepOutput = true;
    // Both boot at once on the empty database: they race to migrate and to seed.
    await Promise.all([a.start(), b.start()]);
    token = await a.token(clientId, clientSecret);
  });
  afterAll(async () => {
    await Promise.all([a?.kill(), b?.kill()]);
    await store?.stop();
    await database?.drop();
  });

  it('migrated the empty database once although both booted at the same moment', async () => {
    const applied = [a, b].map((service) =>
      service.output
        .map(({ line }) => logRecord(line))
        .filter((record) => record?.context === 'Migrations' && record.msg.startsWith('applied '))
        .map((record) => record?.msg.split('applied ')[1]),
    );
    const migrations = await sql<{ name: string }>('SELECT name FROM migrations ORDER BY id');
    expect(migrations.length).toBeGreaterThan(0);
    expect(new Set(migrations.map((row) => row.name)).size).toBe(migrations.length);
    // One instance applied every migration; the other found the work done.
    expect(applied.map((names) => names.length).sort()).toEqual([0, migrations.length]);
    expect(await sql('SELECT id FROM users WHERE username = ?', ['application'])).toHaveLength(1);
    // Both serve, with tokens issued by either.
    await on(b).get('/rest/authenticated-user').expect(200);
    token = await b.token(clientId, clientSecret);
    await on(a).get('/rest/authenticated-user').expect(200);
  });

  it('accepts on one instance a URL signed by the other', async () => {
    const signed = await on(a).post('/rest/sign-url', {
      url: `http://dam.test/rest/access-levels`,
      expirySeconds: 60,
    });
    expect(signed.status).toBe(303);
    const url = new URL(signed.headers.location as string);
    const response = await request(b.baseUrl).get(`${url.pathname}${url.search}`);
    expect(response.status).toBe(200);
  });

  it('reads on one instance, at once, an asset changed or orphaned on the other (no stale kept state)', async () => {
    const create = async (body: object) =>
      new URL((await on(a).post('/rest/assets', body).expect(201)).headers.location as string).pathname;
    const parent = await create({ accessLevels: [{ id: 1 }] });
    const child = await create({ accessLevels: [{ id: 1 }] });
    await on(a)
      .put(child)
      .send({ parents: [`http://dam.test${parent}`] })
      .expect(200);
    const titleOf = (body: { attributes: Array<{ name: string; value: string }> }) =>
      body.attributes.find((attribute) => attribute.name === 'Title')?.value;
    // b reads (and keeps) the states first.
    for (let i = 0; i < 2; i++) {
      expect((await on(b).get(child).expect(200)).body.parents).toEqual([`http://dam.test${parent}`]);
    }
    const before = (await on(b).get(child).expect(200)).body;
    const title = before.attributes.find((attribute: { name: string }) => attribute.name === 'Title');
    await on(a)
      .put(child)
      .send({ attributes: [{ id: title.id, value: 'changed on a' }] })
      .expect(200);
    expect(titleOf((await on(b).get(child).expect(200)).body)).toBe('changed on a');
    await request(a.baseUrl).delete(parent).auth(token, { type: 'bearer' }).expect(204);
    await on(b).get(parent).expect(404);
    expect((await on(b).get(child).expect(200)).body.parents).toEqual([]);
  });

  it('assembles byte-exact a chunked upload whose chunks alternate between the instances', async () => {
    const sizes = [5 * MiB + 123, 5 * MiB + 1, MiB + 7, 33];
    const chunks = sizes.map((size, index) =>
      Buffer.concat([...pseudoRandomBlocks('two-instances', index, size)]),
    );
    const expected = sha256(Buffer.concat(chunks));
    const created = await on(a).post('/rest/temp-chunked-files', {}).expect(201);
    const tempFileUrl = created.headers.location as string;
    const tempFile = new URL(tempFileUrl).pathname;
    for (const [index, chunk] of chunks.entries()) {
      const service = index % 2 === 0 ? a : b;
      await on(service)
        .put(`${tempFile}/${index}`)
        .set('Content-Type', 'application/octet-stream')
        .send(chunk)
        .expect(200);
    }
    for (const service of [a, b]) {
      const read = await on(service)
        .get(tempFile)
        .buffer(true)
        .parse((response, callback) => {
          const parts: Buffer[] = [];
          response.on('data', (part: Buffer) => parts.push(part));
          response.on('end', () => callback(null, Buffer.concat(parts)));
        })
        .expect(200);
      expect(sha256(read.body as Buffer)).toBe(expected);
    }

    // Into an asset created on one instance, by a copy requested on the other, read back through the first.
    const asset = new URL(
      (
        await on(a)
          .post('/rest/assets', { accessLevels: [{ id: 1 }] })
          .expect(201)
      ).headers.location as string,
    ).pathname;
    await on(b)
      .put(`${asset}/content`)
      .set('Content-Type', 'application/octet-stream')
      .set('Content-Disposition', 'attachment; filename="assembled.bin"')
      .set('X-Copy-Temp-Chunked-File', tempFileUrl)
      .expect(200);
    const redirect = await on(a).get(`${asset}/content`).redirects(0).expect(303);
    const fetched = await fetchSigned(redirect.headers.location as string);
    expect(fetched.status).toBe(200);
    expect(fetched.body.length).toBe(sizes.reduce((sum, size) => sum + size, 0));
    expect(fetched.sha256).toBe(expected);
  });

  it('lists on one instance a lightbox created on the other', async () => {
    const me = await on(a).get('/rest/authenticated-user').expect(200);
    const lightboxes = `/rest/users/${String(me.body.id)}/lightboxes`;
    const name = `seen-on-both-${randomBytes(3).toString('hex')}`;
    const created = await on(a).post(lightboxes, { name, description: 'made on instance a' }).expect(201);
    const listed = await on(b).get(lightboxes).expect(200);
    // Each instance writes its own origin into the URLs it returns; the paths name the same lightbox.
    const paths = (listed.body as Array<{ name: string; lightboxInstanceUrl: string }>).map((lightbox) => ({
      name: lightbox.name,
      path: new URL(lightbox.lightboxInstanceUrl).pathname,
    }));
    expect(paths).toContainEqual({ name, path: new URL(created.headers.location as string).pathname });
  });

  it('runs the scheduled temp-file purge on one instance per period, and on the other when the first dies', async () => {
    // A stale temp file for the purge to find.
    const created = await on(b).post('/rest/temp-chunked-files', {}).expect(201);
    const tempFile = new URL(created.headers.location as string).pathname;
    await on(b)
      .put(`${tempFile}/0`)
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.from('stale'))
      .expect(200);
    await sql('UPDATE temp_chunked_files SET touched_at = ? WHERE id = ?', [
      new Date(Date.now() - 48 * 3_600_000),
      created.body.id,
    ]);

    const from = Date.now();
    await sleep(4 * PERIOD_MS + 500);
    const to = Date.now();
    const inWindow = (run: { at: number }) => run.at >= from && run.at <= to;
    const runs = [a, b].map((service) => purgeRuns(service).filter(inWindow));
    const all = [...runs[0], ...runs[1]].sort((x, y) => x.at - y.at);
    // Each instance's timer fired four times in the window; together they ran the purge about four times, not eight.
    expect(all.length).toBeGreaterThanOrEqual(3);
    expect(all.length).toBeLessThanOrEqual(5);
    // No moment ran twice: two instances running one moment would start within milliseconds of each
    // other (half a period leaves room for a timer late under load).
    const starts = all.map((run) => run.started).sort((x, y) => x - y);
    const gaps = starts.slice(1).map((start, i) => start - starts[i]);
    expect(Math.min(...gaps)).toBeGreaterThan(PERIOD_MS / 2);

    // The stale file went, purged by exactly one of them.
    await on(a).get(tempFile).expect(404);
    const purgedBy = [a, b].map(
      (service) => service.output.filter(({ line }) => /purged 1 stale temp chunked files/.test(line)).length,
    );
    expect(purgedBy.sort()).toEqual([0, 1]);

    // Each scheduled moment was run once (job_runs.slot is unique), and recorded as succeeded.
    const recorded = await sql<{ slot: string; status: string }>(
      "SELECT slot, status FROM job_runs WHERE job = 'purge-temp-files' AND trigger_kind = 'schedule'",
    );
    expect(recorded.length).toBeGreaterThanOrEqual(all.length);
    expect(new Set(recorded.map((run) => run.slot)).size).toBe(recorded.length);
    // The timers keep firing: a run of the current moment may still be going.
    const ended = recorded.filter((run) => run.status !== 'running');
    expect(ended.length).toBeGreaterThanOrEqual(all.length - 1);
    expect(ended.every((run) => run.status === 'succeeded')).toBe(true);

    // The newest run names the instance that ran it (the timers keep firing, so it may be newer than the
    // window: wait for its log line); when that instance dies, the other runs the next moments.
    const [lease] = await sql<{ holder: string }>(
      "SELECT holder FROM job_runs WHERE job = 'purge-temp-files' ORDER BY id DESC LIMIT 1",
    );
    const ranOn = (service: ServiceProcess) => purgeRuns(service).some((run) => run.holder === lease.holder);
    const askedAt = Date.now();
    while (!ranOn(a) && !ranOn(b) && Date.now() - askedAt < PERIOD_MS) await sleep(50);
    expect(ranOn(a) !== ranOn(b)).toBe(true);
    const [holder, other] = ranOn(a) ? [a, b] : [b, a];
    await holder.kill();
    const killedAt = Date.now();
    // Killed in the middle of a run, it leaves its lease until the TTL (rounded up to a second) ends; the
    // other takes over at the next moment after that.
    const takeoverWithin = LEASE_TTL_MS + 1_000 + 3 * PERIOD_MS;
    while (
      purgeRuns(other).filter((run) => run.at > killedAt).length === 0 &&
      Date.now() - killedAt < takeoverWithin
    ) {
      await sleep(100);
    }
    const takeover = purgeRuns(other).filter((run) => run.at > killedAt);
    expect(takeover.length).toBeGreaterThan(0);
    expect(takeover[0].holder).not.toBe(lease.holder);
  });
});

/** A JSON log line of the service (DAM_LOG_FORMAT is json when stdout is not a terminal), or undefined. */
function logRecord(line: string): { context?: string; msg: string } | undefined {
  try {
    const record = JSON.parse(line) as { context?: string; msg?: unknown };
    return typeof record.msg === 'string' ? { context: record.context, msg: record.msg } : undefined;
  } catch {
    return undefined;
  }
}
