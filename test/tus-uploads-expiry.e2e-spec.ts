import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { pathOf } from './helpers/bearer-requests';
import { contentRequests } from './helpers/content-fixtures';
import { MATRIX } from './helpers/databases';
import { Grants } from './helpers/grant-fixtures';
import type { TestObjectStore } from './helpers/object-store';
import { startMultipartObjectStore } from './helpers/s3rver-multipart';
import { storedKeys } from './helpers/stored-keys';
import { TestApp } from './helpers/test-app';
import { assetIdOf, tusRequests } from './helpers/tus-requests';

jest.setTimeout(120_000);

/** tus uploads expire like temp files: 410 once past DAM_TEMP_FILE_TTL_HOURS, removed by purge-tus-uploads. */
describe('tus upload expiry', () => {
  let t: TestApp;
  let store: TestObjectStore | undefined;

  beforeAll(async () => {
    store = MATRIX === 'mysql' ? await startMultipartObjectStore() : undefined;
    // 0.001 h = 3.6 s
    t = await TestApp.start({ objectStore: store, env: { DAM_TEMP_FILE_TTL_HOURS: '0.001' } });
  });
  afterAll(async () => {
    await t?.close();
    await store?.stop();
  });

  it('answers 410 after the TTL, and the job removes the upload, its row and its objects', async () => {
    const asset = await contentRequests(() => t).newAsset(await new Grants(t).topLevel('Default'));
    const created = await tusRequests
      .create(t, t.adminToken, 100, { assetId: String(assetIdOf(asset)) })
      .set('Content-Type', 'application/offset+octet-stream')
      .send(randomBytes(30))
      .expect(201);
    const upload = pathOf(created.headers.location as string);
    const expires = Date.parse(created.headers['upload-expires'] as string);
    expect(expires).toBeGreaterThan(Date.now() - 1000);
    const headOf = () => tusRequests.head(t, t.adminToken, upload);
    await headOf().expect(200);
    const dry = await t.http
      .post('/rest/admin/jobs/purge-tus-uploads/runs?dryRun=true')
      .auth(t.adminToken, { type: 'bearer' })
      .send({})
      .expect(202);
    expect(dry.body).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expires - Date.now()) + 1500));
    await headOf().expect(410);
    expect((await storedKeys(t, 'tus/')).length > 0).toBe(true);
    await t.http
      .post('/rest/admin/jobs/purge-tus-uploads/runs')
      .auth(t.adminToken, { type: 'bearer' })
      .send({})
      .expect(202);
    for (
      let tries = 0;
      (await t.app.get(DataSource).query('SELECT id FROM tus_uploads')).length > 0;
      tries++
    ) {
      if (tries > 100) throw new Error('the purge did not remove the upload');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await headOf().expect(404);
    expect(await storedKeys(t, 'tus/')).toEqual([]);
  });
});
