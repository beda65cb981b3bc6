import { ObjectDeletions } from '@dam/storage';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { fetchSigned, sha256 } from './helpers/content-fixtures';
import { createTestDatabase, MATRIX, TestDatabase } from './helpers/databases';
import { startObjectStore, TestObjectStore } from './helpers/object-store';
import { ServiceProcess } from './helpers/service-process';
import { storedKeys } from './helpers/stored-keys';
import { TestApp } from './helpers/test-app';

jest.setTimeout(240_000);

const TITLE = '1';

/**
 * DESIGN §12 "Trash" (issue 31): a process killed (SIGKILL) after assets were trashed and before they
 * were purged loses nothing: after a restart, the orphan sweep keeps the trashed files, and a restore
 * gives back the same bytes and versions. A process killed right after a purge leaves the purged files
 * queued (object_deletions), never the restored asset's.
 */
describe('trash after a crash', () => {
  let database: TestDatabase;
  let store: TestObjectStore | undefined;
  let service: ServiceProcess;
  const clientId = 'trash-crash-client';
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
      // The sweep after the restart would delete any unreferenced object, however young.
      DAM_ORPHAN_GRACE_HOURS: '0',
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

  it('restores after a kill between the trash and the purge; a kill after a purge leaves its files queued', async () => {
    await service.start();
    let token = await service.token(clientId, clientSecret);
    const api = (method: 'get' | 'put' | 'post' | 'delete', path: string) =>
      request(service.baseUrl)[method](path).auth(token, { type: 'bearer' });
    const newAsset = async (): Promise<string> =>
      new URL(
        (
          await api('post', '/rest/assets')
            .send({ accessLevels: [{ id: 1 }] })
            .expect(201)
        ).headers.location as string,
      ).pathname;
    const upload = (asset: string, bytes: Buffer, newVersion = false) =>
      api('put', `${asset}/content`)
        .set('Content-Type', 'application/octet-stream')
        .set('Content-Disposition', 'attachment; filename="file.bin"')
        .set('Upload-As-New-Version', String(newVersion))
        .send(bytes)
        .expect(200);

    const kept = await newAsset();
    await api('put', kept)
      .send({ attributes: [{ id: TITLE, value: 'survives the crash' }] })
      .expect(200);
    const second = randomBytes(4000);
    await upload(kept, randomBytes(3000));
    await upload(kept, second, true);
    const purged = await newAsset();
    await upload(purged, randomBytes(2000));
    await api('delete', kept).expect(204);
    await api('delete', purged).expect(204);
    await service.kill();

    await service.start();
    token = await service.token(clientId, clientSecret);
    await api('get', kept).expect(404);
    const trash = (await api('get', '/rest/admin/trash').expect(200)).body as Array<{
      id: number;
      asset: string;
    }>;
    const idOf = (asset: string) => trash.find((item) => new URL(item.asset).pathname === asset)?.id;
    expect([idOf(kept), idOf(purged)]).toEqual([expect.any(Number), expect.any(Number)]);

    // The sweep counts the trashed files as referenced.
    const run = await api('post', '/rest/admin/jobs/sweep-orphan-objects/runs').send({}).expect(202);
    const runPath = new URL(run.headers.location as string).pathname;
    let status = 'queued';
    for (let i = 0; i < 600 && status !== 'succeeded' && status !== 'failed'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await api('get', runPath).expect(200)).body.status as string;
    }
    expect(status).toBe('succeeded');

    await api('post', `/rest/admin/trash/${idOf(kept)}/restore`)
      .send({})
      .expect(200);
    const restored = (await api('get', kept).expect(200)).body as {
      attributes: Array<{ id: string; value: string }>;
    };
    expect(restored.attributes.find((attribute) => attribute.id === TITLE)?.value).toBe('survives the crash');
    expect((await api('get', `${kept}/versions`).expect(200)).body).toHaveLength(2);
    const redirect = await api('get', `${kept}/content`).redirects(0).expect(303);
    expect((await fetchSigned(redirect.headers.location as string)).sha256).toBe(sha256(second));

    // Purged, then killed at once: the deletion may not have happened, but it is queued.
    await api('delete', `/rest/admin/trash/${idOf(purged)}`).expect(204);
    await service.kill();

    const inspector = await TestApp.start({ database, objectStore: store });
    try {
      await inspector.app.get(ObjectDeletions).runDue(new Date());
      expect(await storedKeys(inspector, `assets/${purged.split('/').pop()}/`)).toEqual([]);
      expect(await storedKeys(inspector, `assets/${kept.split('/').pop()}/`)).toHaveLength(2);
      expect(await inspector.app.get(ObjectDeletions).pending()).toEqual([]);
    } finally {
      await inspector.close();
    }
  });
});
