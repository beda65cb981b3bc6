import { ObjectStorage } from '@dam/storage';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import request from 'supertest';
import { fetchSigned } from './helpers/content-fixtures';
import { createTestDatabase, MATRIX, TestDatabase } from './helpers/databases';
import { startObjectStore, TestObjectStore } from './helpers/object-store';
import { streamRequest } from './helpers/raw-http';
import { ServiceProcess } from './helpers/service-process';
import { TestApp } from './helpers/test-app';

jest.setTimeout(180_000);

const MiB = 1024 * 1024;

/** DESIGN §7: a crash in the middle of an upload leaves the previous content served and nothing half-written. */
describe('asset content after a crash during an upload', () => {
  let database: TestDatabase;
  let store: TestObjectStore | undefined;
  let service: ServiceProcess;
  const clientId = 'crash-client';
  const clientSecret = randomBytes(18).toString('base64url');

  beforeAll(async () => {
    database = await createTestDatabase(MATRIX, { migrated: true });
    store = MATRIX === 'mysql' ? await startObjectStore() : undefined;
    const env: Record<string, string> = {
      DAM_DATA_DIR: database.dataDir,
      DAM_CLIENT_ID: clientId,
      DAM_CLIENT_SECRET: clientSecret,
      DAM_LOG_REQUESTS: 'false',
      DAM_DATABASE_CONNECT_RETRIES: '0',
      DAM_JOBS_ENABLED: 'false',
      ...store?.env,
    };
    if (database.databaseUrl !== undefined) env.DATABASE_URL = database.databaseUrl;
    service = new ServiceProcess(env);
  });
  afterAll(async () => {
    await service?.kill();
    await store?.stop();
    await database?.drop();
  });

  it('serves the previous content after SIGKILL mid-upload and a restart', async () => {
    await service.start();
    const token = await service.token(clientId, clientSecret);
    const http = () => request(service.baseUrl);
    const created = await http()
      .post('/rest/assets')
      .auth(token, { type: 'bearer' })
      .send({ accessLevels: [{ id: 1 }] })
      .expect(201);
    const asset = new URL(created.headers.location as string).pathname;
    const put = (body: Readable, size: number) =>
      streamRequest('PUT', `${service.baseUrl}${asset}/content`, {
        token,
        body,
        headers: {
          'content-type': 'application/octet-stream',
          'content-disposition': 'attachment; filename="file.bin"',
          'content-length': String(size),
        },
      });
    expect((await put(Readable.from([Buffer.from('before the crash')]), 16)).status).toBe(200);

    let sent = 0;
    const slow = new Readable({
      read() {
        sent += 1;
        setTimeout(() => this.push(Buffer.alloc(MiB, sent % 256)), 5);
      },
    });
    const interrupted = put(slow, 512 * MiB).catch((error: unknown) => error);
    while (sent < 32) await new Promise((resolve) => setTimeout(resolve, 20));
    await service.kill();
    // The connection dies with the service (jest's realm makes instanceof Error unreliable here).
    expect(String(await interrupted)).toMatch(/Error/);

    // The restart: an in-process app on the same data (one child start fewer than a second process).
    const restarted = await TestApp.start({ database, env: { ...store?.env } });
    try {
      const redirect = await restarted.http
        .get(`${asset}/content`)
        .auth(restarted.adminToken, { type: 'bearer' })
        .redirects(0)
        .expect(303);
      expect((await fetchSigned(redirect.headers.location as string)).body.toString()).toBe(
        'before the crash',
      );
      const versions = await restarted.http
        .get(`${asset}/versions`)
        .auth(restarted.adminToken, { type: 'bearer' })
        .expect(200);
      expect(versions.body).toHaveLength(1);
      // Only the committed object is reachable in storage.
      const keys: string[] = [];
      for await (const key of restarted.app.get(ObjectStorage).list(`assets/${asset.split('/').pop()}/`))
        keys.push(key);
      expect(keys).toHaveLength(1);
    } finally {
      await restarted.close();
    }
  });
});
