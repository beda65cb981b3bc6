import { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { bearerRequests } from './helpers/bearer-requests';
import { binaryBody, defaultLevelWith, sha256 } from './helpers/content-fixtures';
import { createTestDatabase, MATRIX, TestDatabase } from './helpers/databases';
import { Grants } from './helpers/grant-fixtures';
import { startObjectStore, TestObjectStore } from './helpers/object-store';
import { shareRequests } from './helpers/share-fixtures';
import { TestApp, TestUser } from './helpers/test-app';
import { readZip } from './helpers/zip-reader';

const MAX_FAILURES = 3;

function expectLocked(response: Response): void {
  expect(response.status).toBe(429);
  expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
}

/** Issue 33: a share's ZIP and password, and the signed-in ZIP of a lightbox. */
describe('shares: ZIPs and passwords', () => {
  let database: TestDatabase;
  let store: TestObjectStore | undefined;
  let t: TestApp;
  let level: number;
  let sharer: TestUser;
  let downloader: TestUser;
  let viewer: TestUser;
  const { get } = bearerRequests(() => t);
  const { assetWith, share, publicGet, publicBytes, lightboxOf } = shareRequests(() => t);

  beforeAll(async () => {
    database = await createTestDatabase(MATRIX);
    store = MATRIX === 'mysql' ? await startObjectStore() : undefined;
    t = await TestApp.start({
      database,
      objectStore: store,
      env: {
        DAM_LOGIN_MAX_FAILURES: String(MAX_FAILURES),
        DAM_LOGIN_WINDOW_SECONDS: '600',
        DAM_TRUST_PROXY: 'true',
      },
    });
    ({
      level,
      users: [sharer, downloader, viewer],
    } = await defaultLevelWith(t, new Grants(t), [['view', 'download'], ['view', 'download'], ['view']]));
  });
  afterAll(async () => {
    await t?.close();
    await store?.stop();
    await database?.drop();
  });

  it('streams every item as one ZIP, read back entry by entry: bytes equal, names unique and inside', async () => {
    const assets = [
      await assetWith(level, 'photo.jpg', 300_000),
      await assetWith(level, 'photo.jpg', 2000),
      await assetWith(level, 'PHOTO.JPG', 10),
      await assetWith(level, 'x', 500),
      await assetWith(level, 'y', 0),
      await assetWith(level, 'été 2024.txt', 1_500_000),
    ];
    // Uploads clean their names; names stored another way (older versions, imports) may be anything.
    const dataSource = t.app.get(DataSource);
    await dataSource.query('UPDATE asset_files SET original_filename = ? WHERE asset_id = ?', [
      '../x',
      assets[3].id,
    ]);
    await dataSource.query('UPDATE asset_files SET original_filename = ? WHERE asset_id = ?', [
      '..',
      assets[4].id,
    ]);
    const created = await share(sharer.token, { assetIds: assets.map((asset) => asset.id) }).expect(201);
    const listing = await publicGet(created.body.publicUrl as string).expect(200);
    const zipped = await publicBytes(listing.body.zipUrl as string).expect(200);
    expect(zipped.headers['content-type']).toBe('application/zip');
    expect(Number(zipped.headers['content-length'])).toBe((zipped.body as Buffer).length);
    const entries = readZip(zipped.body as Buffer);
    expect(entries.map((entry) => entry.name)).toEqual([
      'photo.jpg',
      'photo (2).jpg',
      'PHOTO (3).JPG',
      '.._x',
      'file',
      'été 2024.txt',
    ]);
    entries.forEach((entry, index) => expect(sha256(entry.data)).toBe(sha256(assets[index].bytes)));
    for (const { name } of entries) expect(name.split(/[/\\]/)).toEqual([name]);
    expect((await get(`/rest/shares/${created.body.id}`, sharer.token).expect(200)).body.downloads).toBe(1);
  });

  it('asks for the password in X-Share-Password: 401 without or wrong, the items with it', async () => {
    const a = await assetWith(level, 'a.txt');
    const created = await share(sharer.token, { assetIds: [a.id], password: 'correct horse' }).expect(201);
    expect(created.body.hasPassword).toBe(true);
    const url = created.body.publicUrl as string;
    for (const path of [url, `${url}/zip`, `${url}/items/1`]) {
      await publicGet(path, undefined, '10.1.0.1').expect(401);
    }
    await publicGet(url, 'correct hors', '10.1.0.1').expect(401);
    const listing = await publicGet(url, 'correct horse', '10.1.0.1').expect(200);
    expect(listing.body.items).toHaveLength(1);
    const item = await publicBytes(`${url}/items/1`, 'correct horse').expect(200);
    expect(sha256(item.body as Buffer)).toBe(sha256(a.bytes));
  });

  it(`locks a share for an address after ${MAX_FAILURES} wrong passwords, and everywhere after three addresses`, async () => {
    const a = await assetWith(level, 'a.txt');
    const created = await share(sharer.token, { assetIds: [a.id], password: 'right' }).expect(201);
    const url = created.body.publicUrl as string;
    for (let i = 0; i < MAX_FAILURES; i++) await publicGet(url, 'wrong', '10.2.0.1').expect(401);
    expectLocked(await publicGet(url, 'right', '10.2.0.1'));
    // One address alone does not lock the share for others.
    await publicGet(url, 'right', '10.2.0.2').expect(200);
    for (let i = 0; i < MAX_FAILURES; i++) await publicGet(url, 'wrong', '10.2.0.3').expect(401);
    // The third address's failures lock the share everywhere (LoginThrottle, DAM_LOGIN_LOCK_ADDRESSES).
    for (let i = 0; i < MAX_FAILURES; i++) {
      expect([401, 429]).toContain((await publicGet(url, 'wrong', '10.2.0.4')).status);
    }
    expectLocked(await publicGet(url, 'right', '10.2.0.9'));
    // Another share is not locked.
    const b = await share(sharer.token, { assetIds: [a.id], password: 'right' }).expect(201);
    await publicGet(b.body.publicUrl as string, 'right', '10.2.0.9').expect(200);
  });

  it('streams a lightbox as a ZIP of the assets the caller may download; another user’s lightbox is 404', async () => {
    const [a, b] = [await assetWith(level, 'a.txt', 100), await assetWith(level, 'b.txt', 200)];
    const grants = new Grants(t);
    const hidden = await grants.topLevel(`hidden-${Date.now()}`);
    const c = await assetWith(hidden, 'c.txt', 300);
    const lightbox = await lightboxOf(downloader, 'My picks', [a, b]);
    const zipped = await get(`/rest/lightboxes/${lightbox}/zip`, downloader.token)
      .buffer(true)
      .parse(binaryBody)
      .expect(200);
    expect(zipped.headers['content-disposition']).toContain('My picks.zip');
    const entries = readZip(zipped.body as Buffer);
    expect(entries.map((entry) => [entry.name, sha256(entry.data)])).toEqual([
      ['a.txt', sha256(a.bytes)],
      ['b.txt', sha256(b.bytes)],
    ]);
    await get(`/rest/lightboxes/${lightbox}/zip`, sharer.token).expect(404);
    await get(`/rest/lightboxes/999999/zip`, sharer.token).expect(404);
    // The viewer sees but may not download: their lightbox's ZIP is empty.
    const viewers = await lightboxOf(viewer, 'Seen', [a]);
    const empty = await get(`/rest/lightboxes/${viewers}/zip`, viewer.token)
      .buffer(true)
      .parse(binaryBody)
      .expect(200);
    expect(readZip(empty.body as Buffer)).toEqual([]);
    // A share of the lightbox is a snapshot of it; the creator needs download on each asset.
    const shared = await share(downloader.token, { lightboxId: lightbox }).expect(201);
    expect(shared.body.title).toBe('My picks');
    await share(viewer.token, { lightboxId: viewers }).expect(403);
    await share(sharer.token, { lightboxId: lightbox }).expect(404);
    expect(c.id).toBeGreaterThan(0);
  });
});
