import { DataSource } from 'typeorm';
import { bearerRequests, itRefusesRequestsWithoutAToken, pathOf } from './helpers/bearer-requests';
import { contentRequests, defaultLevelWith, png, sha256 } from './helpers/content-fixtures';
import { Grants } from './helpers/grant-fixtures';
import { shareRequests } from './helpers/share-fixtures';
import { TestApp, TestUser } from './helpers/test-app';

const DAY_MS = 24 * 3600 * 1000;

/** Issue 33, DESIGN §12 "Shares": creating, listing and revoking shares, and their public URLs. */
describe('shares', () => {
  let t: TestApp;
  let level: number;
  let viewer: TestUser;
  let sharer: TestUser;
  let other: TestUser;
  const { get, put, delete: del } = bearerRequests(() => t);
  const { assetWith, share, publicGet, publicBytes } = shareRequests(() => t);
  const { newAsset, upload } = contentRequests(() => t);
  const sql = <T>(statement: string, values: unknown[] = []): Promise<T[]> =>
    t.app.get(DataSource).query(statement, values);

  beforeAll(async () => {
    t = await TestApp.start();
    ({
      level,
      users: [viewer, sharer, other],
    } = await defaultLevelWith(t, new Grants(t), [['view'], ['view', 'download'], ['view', 'download']]));
  });
  afterAll(() => t?.close());

  itRefusesRequestsWithoutAToken(
    () => t,
    [
      ['POST', '/rest/shares'],
      ['GET', '/rest/shares'],
      ['GET', '/rest/shares/1'],
      ['DELETE', '/rest/shares/1'],
      ['GET', '/rest/lightboxes/1/zip'],
    ],
  );

  it('creates a share for 7 days by default; its public listing names the items, not a download', async () => {
    const [a, b] = [await assetWith(level, 'a.jpg'), await assetWith(level, 'b report.pdf', 5000)];
    const before = Date.now();
    const created = await share(sharer.token, { assetIds: [a.id, b.id] }).expect(201);
    expect(created.headers.location).toBe(created.body.url);
    expect(created.body).toMatchObject({ maxDownloads: null, downloads: 0, hasPassword: false });
    expect(created.body.publicUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/rest\/shared\/[A-Za-z0-9_-]{43}$/);
    const expires = Date.parse(created.body.expiresAt as string);
    expect(expires).toBeGreaterThanOrEqual(before + 7 * DAY_MS - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 7 * DAY_MS);

    const listing = await publicGet(created.body.publicUrl as string).expect(200);
    expect(listing.body).toMatchObject({ title: '2 files', expiresAt: created.body.expiresAt });
    expect(listing.body.items).toEqual([
      { filename: 'a.jpg', size: 1000, contentType: expect.any(String), downloadUrl: expect.any(String) },
      {
        filename: 'b report.pdf',
        size: 5000,
        contentType: expect.any(String),
        downloadUrl: expect.any(String),
      },
    ]);
    const item = await publicBytes(listing.body.items[1].downloadUrl as string).expect(200);
    expect(sha256(item.body as Buffer)).toBe(sha256(b.bytes));
    expect(item.headers['content-disposition']).toContain('b report.pdf');
    const read = await get(pathOf(created.body.url as string), sharer.token).expect(200);
    expect(read.body).toMatchObject({ id: created.body.id, downloads: 1, publicUrl: null });
  });

  it('never stores the token: the database holds its SHA-256 and a scrypt hash of the password', async () => {
    const a = await assetWith(level, 'secret.txt');
    const created = await share(sharer.token, { assetIds: [a.id], password: 'open sesame' }).expect(201);
    const token = (created.body.publicUrl as string).split('/').pop() as string;
    const [row] = await sql<Record<string, unknown>>('SELECT * FROM shares WHERE id = ?', [created.body.id]);
    expect(JSON.stringify(row)).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain('open sesame');
    expect(String(row.password_hash)).toMatch(/^scrypt\$/);
    const events = await sql<{ data: string }>("SELECT data FROM domain_events WHERE type LIKE 'share.%'");
    expect(events.length).toBeGreaterThan(0);
    for (const { data } of events) {
      expect(data).not.toContain(token);
      expect(data).not.toContain('open sesame');
    }
  });

  it.each([
    [{}, 'give either assetIds or lightboxId'],
    [{ assetIds: [1], lightboxId: 1 }, 'give either assetIds or lightboxId'],
    [{ assetIds: [] }, 'assetIds must be a non-empty array'],
    [{ assetIds: ['x'] }, 'assetIds must be a non-empty array'],
    [{ assetIds: [1], expiresAt: '2001-01-01T00:00:00Z' }, 'expiresAt must be in the future'],
    [{ assetIds: [1], expiresAt: new Date(Date.now() + 91 * DAY_MS).toISOString() }, 'at most 90 days'],
    [{ assetIds: [1], expiresAt: 'soon' }, 'ISO 8601'],
    [{ assetIds: [1], rendition: 'thumbnail' }, 'rendition must be one of original, display, preview'],
    [{ assetIds: [1], maxDownloads: 0 }, 'maxDownloads must be a positive integer'],
    [{ assetIds: [1], password: '' }, 'password must be a non-empty string'],
  ])('refuses %j with 400', async (body, message) => {
    const refused = await share(sharer.token, body).expect(400);
    expect(refused.text).toContain(message);
  });

  it('refuses assets the creator may not download (403) or see (404), writing nothing', async () => {
    const a = await assetWith(level, 'a.txt');
    const before = await sql<{ n: number }>('SELECT COUNT(*) AS n FROM shares');
    await share(viewer.token, { assetIds: [a.id] }).expect(403);
    await share(sharer.token, { assetIds: [a.id, 999_999] }).expect(404);
    expect(await sql('SELECT COUNT(*) AS n FROM shares')).toEqual(before);
  });

  it("lists one's own shares, paged; another user's share is 404 to read and to revoke", async () => {
    const a = await assetWith(level, 'a.txt');
    const mine = await share(other.token, { assetIds: [a.id] }).expect(201);
    const path = pathOf(mine.body.url as string);
    const listed = await get('/rest/shares?pageSize=1', other.token).expect(200);
    expect(listed.body.map((item: { id: number }) => item.id)).toEqual([mine.body.id]);
    expect(listed.headers['x-total-count']).toBe('1');
    expect(listed.headers.link).toContain('rel="first"');
    const sharers = await get('/rest/shares', sharer.token).expect(200);
    expect(sharers.body.map((item: { id: number }) => item.id)).not.toContain(mine.body.id);
    await get(path, sharer.token).expect(404);
    await del(path, sharer.token).expect(404);
    const all = await get('/rest/shares', t.adminToken).expect(200);
    expect(all.body.map((item: { id: number }) => item.id)).toContain(mine.body.id);
    const xml = await get(path, other.token).set('Accept', 'application/xml').expect(200);
    expect(xml.text).toContain(`<id>${mine.body.id}</id>`);
  });

  it('answers 404 with one message for unknown, revoked, expired and used-up shares', async () => {
    const a = await assetWith(level, 'a.txt');
    const unknown = await publicGet(t.rest(`shared/${'A'.repeat(43)}`)).expect(404);
    const revoked = await share(sharer.token, { assetIds: [a.id] }).expect(201);
    await del(pathOf(revoked.body.url as string), sharer.token).expect(204);
    await del(pathOf(revoked.body.url as string), sharer.token).expect(204);
    const expired = await share(sharer.token, { assetIds: [a.id] }).expect(201);
    await sql('UPDATE shares SET expires_at = ? WHERE id = ?', ['2001-01-01 00:00:00', expired.body.id]);
    const usedUp = await share(sharer.token, { assetIds: [a.id], maxDownloads: 1 }).expect(201);
    const item = `${usedUp.body.publicUrl}/items/1`;
    await publicGet(usedUp.body.publicUrl as string).expect(200);
    await publicGet(usedUp.body.publicUrl as string).expect(200);
    await publicBytes(item).expect(200);
    for (const url of [revoked.body.publicUrl, expired.body.publicUrl, usedUp.body.publicUrl] as string[]) {
      for (const path of [url, `${url}/zip`, `${url}/items/1`]) {
        expect((await publicGet(path).expect(404)).text).toBe(unknown.text);
      }
    }
    expect((await get(pathOf(revoked.body.url as string), sharer.token).expect(200)).body.revokedAt).not.toBe(
      null,
    );
  });

  it('lets exactly one of two racing clients take the last download', async () => {
    const a = await assetWith(level, 'a.txt');
    const created = await share(sharer.token, { assetIds: [a.id], maxDownloads: 2 }).expect(201);
    // HEAD (link previews, download managers' probes) answers the headers and counts nothing.
    for (const path of ['items/1', 'zip']) {
      const head = await t.http.head(pathOf(`${created.body.publicUrl}/${path}`)).expect(200);
      expect(Number(head.headers['content-length'])).toBeGreaterThanOrEqual(1000);
    }
    await publicBytes(`${created.body.publicUrl}/items/1`).expect(200);
    const race = await Promise.all([
      publicBytes(`${created.body.publicUrl}/items/1`),
      publicBytes(`${created.body.publicUrl}/zip`),
    ]);
    expect(race.map((response) => response.status).sort()).toEqual([200, 404]);
    const read = await get(pathOf(created.body.url as string), sharer.token).expect(200);
    expect(read.body.downloads).toBe(2);
  });

  it('drops an item whose asset is trashed or archived, or that the creator may no longer download', async () => {
    const [kept, trashed, archived] = [
      await assetWith(level, 'kept.txt'),
      await assetWith(level, 'trashed.txt'),
      await assetWith(level, 'archived.txt'),
    ];
    const creator = await t.createUser();
    const grants = new Grants(t);
    await grants.give(creator.id, [level], ['view', 'download']);
    const created = await share(creator.token, { assetIds: [kept.id, trashed.id, archived.id] }).expect(201);
    const names = async () =>
      (await publicGet(created.body.publicUrl as string).expect(200)).body.items.map(
        (item: { filename: string }) => item.filename,
      );
    expect(await names()).toEqual(['kept.txt', 'trashed.txt', 'archived.txt']);

    await del(trashed.path, t.adminToken).expect(204);
    const current = await get(archived.path, t.adminToken).expect(200);
    await put(archived.path, t.adminToken, { ...current.body, archived: true }).expect(200);
    expect(await names()).toEqual(['kept.txt']);
    await publicGet(`${created.body.publicUrl}/items/2`).expect(404);
    await publicBytes(`${created.body.publicUrl}/items/1`).expect(200);

    await grants.give(creator.id, [level], ['view']);
    expect(await names()).toEqual([]);
    await publicGet(`${created.body.publicUrl}/items/1`).expect(404);
  });

  it('hands out display renditions when asked, once made; a file without one holds nothing', async () => {
    const photo = await newAsset(level);
    await upload(photo, t.adminToken, await png(1200, 900), 'photo.png').expect(200);
    const photoId = Number(photo.split('/').pop());
    const created = await share(sharer.token, { assetIds: [photoId], rendition: 'display' }).expect(201);
    const deadline = Date.now() + 15_000;
    let items: Array<{ filename: string; contentType: string; downloadUrl: string }> = [];
    while (items.length === 0 && Date.now() < deadline) {
      items = (await publicGet(created.body.publicUrl as string).expect(200)).body.items;
      if (items.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(items).toMatchObject([{ filename: 'photo.jpg', contentType: 'image/jpeg' }]);
    const display = await publicBytes(items[0].downloadUrl).expect(200);
    expect((display.body as Buffer).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));

    const other = await assetWith(level, 'a.bin');
    const none = await share(sharer.token, { assetIds: [other.id], rendition: 'preview' }).expect(201);
    expect((await publicGet(none.body.publicUrl as string).expect(200)).body.items).toEqual([]);
    await publicGet(`${none.body.publicUrl}/zip`).expect(404);
  });

  it('purge-expired-shares deletes the expired shares with their items, and only them', async () => {
    const a = await assetWith(level, 'a.txt');
    const [expired, live] = [
      await share(sharer.token, { assetIds: [a.id] }).expect(201),
      await share(sharer.token, { assetIds: [a.id] }).expect(201),
    ];
    await sql('UPDATE shares SET expires_at = ? WHERE id = ?', ['2001-01-01 00:00:00', expired.body.id]);
    const runOnce = async (dryRun: boolean) => {
      const started = await bearerRequests(() => t)
        .post(`/rest/admin/jobs/purge-expired-shares/runs?dryRun=${dryRun}`, t.adminToken, {})
        .expect(202);
      for (;;) {
        const run = await get(pathOf(started.headers.location as string), t.adminToken).expect(200);
        if (run.body.finishedAt !== null)
          return run.body as { status: string; summary: { details: string[] } };
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const dry = await runOnce(true);
    expect(dry.summary.details).toContain(`would remove share ${expired.body.id}`);
    await get(pathOf(expired.body.url as string), sharer.token).expect(200);
    expect((await runOnce(false)).status).toBe('succeeded');
    await get(pathOf(expired.body.url as string), sharer.token).expect(404);
    await get(pathOf(live.body.url as string), sharer.token).expect(200);
    expect(await sql('SELECT * FROM share_items WHERE share_id = ?', [expired.body.id])).toEqual([]);
  });
});
