import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { createTestDatabase, MATRIX, TestDatabase } from './helpers/databases';
import { startObjectStore, TestObjectStore } from './helpers/object-store';
import { ServiceProcess } from './helpers/service-process';

jest.setTimeout(180_000);

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Issue 16: the API as operators run it (main.ts in its own process, stdout a pipe): JSON lines through
 * pino, one per request with its id, route pattern, status, time, bytes, actor, client and address, and
 * no secret in any line whatever the requests carried.
 */
describe('logs', () => {
  let databases: TestDatabase[] = [];
  let store: TestObjectStore | undefined;
  let json: ServiceProcess;
  let pretty: ServiceProcess;
  const clientId = 'logs-client';
  const clientSecret = `client-secret-${randomBytes(12).toString('hex')}`;

  async function environment(): Promise<Record<string, string>> {
    const database = await createTestDatabase(MATRIX, { migrated: true });
    databases.push(database);
    return {
      DAM_DATA_DIR: database.dataDir,
      ...(database.databaseUrl === undefined ? {} : { DATABASE_URL: database.databaseUrl }),
      ...(store?.env ?? {}),
      DAM_CLIENT_ID: clientId,
      DAM_CLIENT_SECRET: clientSecret,
      DAM_DATABASE_CONNECT_RETRIES: '0',
      DAM_JOBS_ENABLED: 'false',
    };
  }

  beforeAll(async () => {
    store = MATRIX === 'mysql' ? await startObjectStore() : undefined;
    json = new ServiceProcess({ ...(await environment()), DAM_LOG_FORMAT: 'json' });
    pretty = new ServiceProcess({
      ...(await environment()),
      DAM_LOG_FORMAT: 'pretty',
      DAM_LOG_REQUESTS: 'false',
    });
    json.keepOutput = true;
    pretty.keepOutput = true;
    await Promise.all([json.start(), pretty.start()]);
  });
  afterAll(async () => {
    await Promise.all([json?.kill(), pretty?.kill()]);
    await store?.stop();
    for (const database of databases) await database.drop();
    databases = [];
  });

  const records = () => json.output.map(({ line }) => JSON.parse(line) as Record<string, unknown>);
  /** The request line of the request sent with `X-Request-Id: id`, once it is written. */
  async function requestLine(id: string): Promise<Record<string, unknown>> {
    for (let i = 0; i < 100; i++) {
      const line = records().find((record) => record.requestId === id && 'status' in record);
      if (line !== undefined) return line;
      await sleep(50);
    }
    throw new Error(`no request line for ${id}`);
  }

  it('writes JSON lines only, Nest’s own logs included', () => {
    expect(json.output.length).toBeGreaterThan(0);
    for (const { line } of json.output) expect(() => JSON.parse(line)).not.toThrow();
    expect(records()).toContainEqual(
      expect.objectContaining({
        level: 'info',
        context: 'NestApplication',
        msg: 'Nest application successfully started',
      }),
    );
  });

  it('lets no secret through: passwords, client secrets, bearer, refresh and signed-URL keys', async () => {
    const http = request(json.baseUrl);
    const token = await json.token(clientId, clientSecret);
    const secrets = [clientSecret, token];
    const username = `logs-${randomBytes(4).toString('hex')}`;
    const password = `pw-${randomBytes(12).toString('hex')}`;
    secrets.push(password);
    const created = await http
      .post('/rest/users')
      .query({ username })
      .auth(token, { type: 'bearer' })
      .expect(201);
    const userPath = new URL(created.headers.location as string).pathname;
    await http.put(userPath).auth(token, { type: 'bearer' }).send({ password }).expect(200);

    const grant = await http
      .post('/oauth/token')
      .set('X-Request-Id', 'logs-password-grant')
      .type('form')
      .send({ grant_type: 'password', username, password, client_id: clientId, client_secret: clientSecret })
      .expect(200);
    const userToken = grant.body.access_token as string;
    const refreshToken = grant.body.refresh_token as string;
    secrets.push(userToken, refreshToken);
    // A wrong password, and client credentials in HTTP Basic.
    await http
      .post('/oauth/token')
      .type('form')
      .send({
        grant_type: 'password',
        username,
        password: `${password}-wrong`,
        client_id: clientId,
        client_secret: clientSecret,
      })
      .expect(400);
    secrets.push(`${password}-wrong`);
    const refreshed = await http
      .post('/oauth/token')
      .auth(clientId, clientSecret)
      .type('form')
      .send({ grant_type: 'refresh_token', refresh_token: refreshToken })
      .expect(200);
    secrets.push(refreshed.body.access_token as string, refreshed.body.refresh_token as string);
    // A JSON body with the secrets, and a bearer token that is wrong.
    await http
      .post('/oauth/token')
      .send({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret })
      .expect(200);
    await http.get('/rest/authenticated-user').set('Authorization', `Bearer ${token}-forged`).expect(401);

    await http
      .get('/rest/authenticated-user')
      .set('X-Request-Id', 'logs-bearer')
      .set('Cookie', `session=${token}`)
      .auth(userToken, { type: 'bearer' })
      .expect(200);
    const signed = await http
      .post('/rest/sign-url')
      .auth(userToken, { type: 'bearer' })
      .send({ url: `${json.baseUrl}/rest/authenticated-user`, expirySeconds: 60 })
      .expect(303);
    const signedUrl = new URL(signed.headers.location as string);
    const key = signedUrl.searchParams.get('key') ?? '';
    expect(key.length).toBeGreaterThan(10);
    secrets.push(key);
    await http
      .get(`${signedUrl.pathname}${signedUrl.search}`)
      .set('X-Request-Id', 'logs-signed-url')
      .expect(200);

    const bearerLine = await requestLine('logs-bearer');
    await requestLine('logs-signed-url');
    await requestLine('logs-password-grant');
    const leaks = json.output
      .map(({ line }) => line)
      .filter((line) => secrets.some((secret) => line.includes(secret)) || line.includes('timestamp='));
    expect(leaks).toEqual([]);
    expect(bearerLine.clientId).toBe(clientId);
  });

  it('writes one line per request: id (the client’s if valid), method, route pattern, status, ms, bytes, actor, client, address', async () => {
    const http = request(json.baseUrl);
    const token = await json.token(clientId, clientSecret);
    const me = await http
      .get('/rest/authenticated-user')
      .set('X-Request-Id', 'logs-fields.1')
      .auth(token, { type: 'bearer' })
      .expect(200);
    expect(me.headers['x-request-id']).toBe('logs-fields.1');
    const line = await requestLine('logs-fields.1');
    expect(line).toMatchObject({
      level: 'info',
      requestId: 'logs-fields.1',
      method: 'GET',
      route: '/rest/authenticated-user',
      status: 200,
      bytes: Buffer.byteLength(me.text),
      actorId: me.body.id,
      clientId,
      msg: 'GET /rest/authenticated-user 200',
    });
    expect(line.ms).toEqual(expect.any(Number));
    expect(line.remoteAddress).toMatch(/127\.0\.0\.1/);
    expect(typeof line.time).toBe('string');

    // The route pattern, not the path; a generated id when the client's is unusable.
    const missing = await http.get('/rest/assets/424242').auth(token, { type: 'bearer' }).expect(404);
    const generated = missing.headers['x-request-id'] as string;
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);
    expect(await requestLine(generated)).toMatchObject({
      route: '/rest/assets/:id',
      status: 404,
      actorId: me.body.id,
    });
    const bad = await http.get('/rest').set('X-Request-Id', 'bad id; drop').expect(401);
    expect(bad.headers['x-request-id']).not.toBe('bad id; drop');
    expect(await requestLine(bad.headers['x-request-id'] as string)).toMatchObject({
      route: '/rest',
      status: 401,
      actorId: null,
      clientId: null,
    });
  });

  it('DAM_LOG_FORMAT=pretty writes text, and DAM_LOG_REQUESTS=false no request lines', async () => {
    const http = request(pretty.baseUrl);
    await http.get('/rest').set('X-Request-Id', 'logs-pretty-request').expect(401);
    await http.get('/health/live').expect(200);
    await sleep(300);
    const lines = pretty.output.map(({ line }) => line);
    expect(lines.some((line) => line.includes('Nest application successfully started'))).toBe(true);
    expect(lines.filter((line) => line.trim().startsWith('{'))).toEqual([]);
    expect(
      lines.filter(
        (line) => line.includes('logs-pretty-request') || /GET \/(rest|health\/live) \d{3}/.test(line),
      ),
    ).toEqual([]);
  });
});
