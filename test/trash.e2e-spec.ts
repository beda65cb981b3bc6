import { JobContext, JobRegistry, JobSummary } from '@dam/jobs';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { grant, insertAccessLevel, insertCategory } from './helpers/asset-permission-fixtures';
import { bearerRequests, itRefusesRequestsWithoutAToken, pathOf } from './helpers/bearer-requests';
import { contentRequests, fetchSigned, sha256 } from './helpers/content-fixtures';
import { storedKeys } from './helpers/stored-keys';
import { TestApp, TestUser } from './helpers/test-app';

const TITLE = 1;
const CATEGORIES = 10;

interface TrashedItem {
  id: number;
  asset: string;
  title: string | null;
  deletedBy: string | null;
  deletedAt: string;
  purgeAt: string;
}

/** The trash (DESIGN §12 "Trash"): DELETE keeps the asset restorable; admins list, restore and purge. */
describe('trash', () => {
  let t: TestApp;
  let db: DataSource;
  let level: number;
  let category: number;
  let viewer: TestUser;
  let deleter: TestUser;
  const events: string[] = [];
  const { get, post, put, delete: remove } = bearerRequests(() => t);
  const { newAsset, upload } = contentRequests(() => t);

  beforeAll(async () => {
    t = await TestApp.start({ env: { DAM_ORPHAN_GRACE_HOURS: '0' } });
    db = t.app.get(DataSource);
    level = await insertAccessLevel(t, { name: `trash-${randomBytes(3).toString('hex')}` });
    category = await insertCategory(t);
    viewer = await t.createUser();
    deleter = await t.createUser();
    await grant(t, viewer.id, [level], ['view', 'download']);
    await grant(t, deleter.id, [level], ['view', 'download', 'delete']);
    t.app.get(EventEmitter2).on('asset.*', (event: { type: string }) => events.push(event.type));
  });
  afterAll(() => t?.close());

  async function run(name: string, dryRun = false): Promise<JobSummary> {
    const job = t.app.get(JobRegistry).get(name);
    if (job === undefined) throw new Error(`job ${name} is not registered`);
    const summary: JobSummary = { examined: 0, changed: 0, reported: 0, details: [] };
    const context: JobContext = {
      dryRun,
      summary,
      note: (detail) => void summary.details.push(detail),
      checkpoint: () => Promise.resolve(),
    };
    await job.run(context);
    return summary;
  }

  async function download(asset: string, token: string): Promise<string> {
    const redirect = await get(`${asset}/content`, token).redirects(0).expect(303);
    return (await fetchSigned(redirect.headers.location as string)).sha256;
  }

  /** An asset with a title, a category, two versions, in a lightbox of the viewer. */
  async function richAsset(title: string) {
    const asset = await newAsset(level);
    await put(asset, t.adminToken, {
      attributes: [
        { id: String(TITLE), value: title },
        { id: String(CATEGORIES), value: String(category) },
      ],
    }).expect(200);
    const first = randomBytes(3000);
    const second = randomBytes(5000);
    await upload(asset, t.adminToken, first, 'one.bin').expect(200);
    await upload(asset, t.adminToken, second, 'two.bin').set('Upload-As-New-Version', 'true').expect(200);
    const box = await post(`/rest/users/${viewer.id}/lightboxes`, viewer.token, {
      name: `box-${randomBytes(3).toString('hex')}`,
    }).expect(201);
    const contents = pathOf(box.body.lightboxContentsUrl as string);
    await post(contents, viewer.token, { url: `${t.baseUrl}${asset}` }).expect(201);
    return { asset, id: Number(asset.split('/').pop()), contents, digest: sha256(second) };
  }

  async function trashed(): Promise<TrashedItem[]> {
    return (await get('/rest/admin/trash', t.adminToken).expect(200)).body as TrashedItem[];
  }

  /** X-Total-Count of the list is the number of rows in the trash (the tally follows every change). */
  async function expectTotalIsTheTrash(): Promise<void> {
    const page = await get('/rest/admin/trash?pageSize=1', t.adminToken).expect(200);
    const [{ n }] = (await db.query('SELECT COUNT(*) AS n FROM trashed_assets')) as Array<{ n: unknown }>;
    expect(Number(page.headers['x-total-count'])).toBe(Number(n));
  }

  async function searchTotal(title: string, token: string): Promise<number> {
    const response = await get(`/rest/asset-search?keywords=${title}`, token).expect(200);
    expect(response.body).toHaveLength(Number(response.headers['x-total-count']));
    return Number(response.headers['x-total-count']);
  }

  async function levelCount(token: string): Promise<number | undefined> {
    const nodes = (await get('/rest/access-level-search?count=true', token).expect(200)).body as Array<{
      id: number;
      count?: number;
    }>;
    return nodes.find((node) => Number(node.id) === level)?.count;
  }

  itRefusesRequestsWithoutAToken(
    () => t,
    [
      ['GET', '/rest/admin/trash'],
      ['POST', '/rest/admin/trash/1/restore'],
      ['DELETE', '/rest/admin/trash/1'],
    ],
  );

  it('refuses non-admins (403)', async () => {
    await get('/rest/admin/trash', viewer.token).expect(403);
    await post('/rest/admin/trash/1/restore', viewer.token, {}).expect(403);
    await remove('/rest/admin/trash/1', viewer.token).expect(403);
  });

  it('hides a trashed asset from every surface, then restores it with every relation and the same bytes', async () => {
    const title = `trashtitle${randomBytes(4).toString('hex')}`;
    const { asset, id, contents, digest } = await richAsset(title);
    const before = (await get(asset, t.adminToken).expect(200)).body as Record<string, unknown>;
    const versionsBefore = (await get(`${asset}/versions`, t.adminToken).expect(200)).body as unknown[];
    const keysBefore = await storedKeys(t, `assets/${id}/`);
    expect(keysBefore).toHaveLength(2);
    expect(await searchTotal(title, viewer.token)).toBe(1);
    const countBefore = await levelCount(t.adminToken);

    await remove(asset, deleter.token).expect(204);
    expect(events).toEqual(expect.arrayContaining(['asset.deleted', 'asset.trashed']));

    for (const token of [t.adminToken, viewer.token]) {
      await get(asset, token).expect(404);
      expect(await searchTotal(title, token)).toBe(0);
    }
    expect((await get(contents, viewer.token).expect(200)).body).toEqual([]);
    expect(await levelCount(t.adminToken)).toBe((countBefore ?? 0) - 1);
    // The files stay, and the orphan sweep keeps them.
    await run('sweep-orphan-objects');
    expect(await storedKeys(t, `assets/${id}/`)).toEqual(keysBefore);

    const [item] = (await trashed()).filter((entry) => entry.asset === `${t.baseUrl}${asset}`);
    expect(item).toMatchObject({ title, deletedBy: deleter.url });
    expect(new Date(item.purgeAt).getTime() - new Date(item.deletedAt).getTime()).toBe(30 * 86_400_000);

    const restored = await post(`/rest/admin/trash/${item.id}/restore`, t.adminToken, {}).expect(200);
    expect(events).toContain('asset.restored');
    expect(restored.body.url).toBe(`${t.baseUrl}${asset}`);
    const after = (await get(asset, viewer.token).expect(200)).body as Record<string, unknown>;
    expect({ ...after, version: undefined }).toEqual({ ...before, version: undefined });
    expect(after.contentSha256).toBe(digest);
    expect((await get(`${asset}/versions`, t.adminToken).expect(200)).body).toEqual(versionsBefore);
    expect(await download(asset, viewer.token)).toBe(digest);
    expect(await searchTotal(title, viewer.token)).toBe(1);
    expect(await levelCount(t.adminToken)).toBe(countBefore);
    expect((await get(contents, viewer.token).expect(200)).body).toHaveLength(1);
    expect((await trashed()).map((entry) => entry.id)).not.toContain(item.id);
    await post(`/rest/admin/trash/${item.id}/restore`, t.adminToken, {}).expect(404);
    await remove(`/rest/admin/trash/${item.id}`, t.adminToken).expect(404);
  });

  it('lists newest first, paged, with X-Total-Count and Link, and as XML', async () => {
    for (const name of ['older', 'newer']) {
      const asset = await newAsset(level);
      await put(asset, t.adminToken, { attributes: [{ id: String(TITLE), value: name }] }).expect(200);
      await remove(asset, t.adminToken).expect(204);
    }
    const page = await get('/rest/admin/trash?page=0&pageSize=1', t.adminToken).expect(200);
    expect(page.body).toHaveLength(1);
    expect(page.body[0].title).toBe('newer');
    expect(Number(page.headers['x-total-count'])).toBeGreaterThanOrEqual(2);
    expect(page.headers.link).toContain('rel="next"');
    const xml = await get('/rest/admin/trash', t.adminToken).set('Accept', 'application/xml').expect(200);
    expect(xml.text).toContain('<trashedAssets ');
    expect(xml.text).toContain('<title>newer</title>');
  });

  it('purges on DELETE and by the job: rows gone, files deleted; a restored asset is never touched', async () => {
    const purged = await richAsset(`purged${randomBytes(3).toString('hex')}`);
    const expired = await richAsset(`expired${randomBytes(3).toString('hex')}`);
    const kept = await richAsset(`kept${randomBytes(3).toString('hex')}`);
    for (const { asset } of [purged, expired, kept]) await remove(asset, t.adminToken).expect(204);
    await expectTotalIsTheTrash();
    const idOf = async (asset: string) =>
      (await trashed()).find((entry) => entry.asset === `${t.baseUrl}${asset}`)?.id as number;

    await remove(`/rest/admin/trash/${await idOf(purged.asset)}`, t.adminToken).expect(204);
    expect(events).toContain('asset.purged');
    expect(await storedKeys(t, `assets/${purged.id}/`)).toEqual([]);
    await expectTotalIsTheTrash();

    const keptId = await idOf(kept.asset);
    const expiredId = await idOf(expired.asset);
    await db
      .createQueryBuilder()
      .update('trashed_assets')
      .set({ purgeAt: new Date(Date.now() - 1000) })
      .where('id IN (:...ids)', { ids: [keptId, expiredId] })
      .execute();
    await post(`/rest/admin/trash/${keptId}/restore`, t.adminToken, {}).expect(200);
    await expectTotalIsTheTrash();
    const dry = await run('purge-trash', true);
    expect(dry.details).toEqual([`would remove trashed asset ${expiredId}`]);
    const summary = await run('purge-trash');
    expect(summary.changed).toBe(1);
    await expectTotalIsTheTrash();
    expect(await storedKeys(t, `assets/${expired.id}/`)).toEqual([]);
    expect(await db.query('SELECT id FROM trashed_assets WHERE id = ?', [expiredId])).toEqual([]);
    expect(await download(kept.asset, viewer.token)).toBe(kept.digest);
    await post(`/rest/admin/trash/${expiredId}/restore`, t.adminToken, {}).expect(404);
  });

  it('restores a checked-out asset checked in: the checkout ended with the deletion', async () => {
    const asset = await newAsset(level);
    await put(`${asset}/checkout`, t.adminToken, { userId: deleter.id }).expect(200);
    expect((await get(`${asset}/checkout`, t.adminToken).expect(200)).body.userId).toBe(String(deleter.id));
    await remove(asset, deleter.token).expect(204);
    const item = (await trashed()).find((entry) => entry.asset === `${t.baseUrl}${asset}`);
    await post(`/rest/admin/trash/${item?.id}/restore`, t.adminToken, {}).expect(200);
    expect(
      Number((await get(`${asset}/checkout`, t.adminToken).expect(200)).body.userId),
    ).toBeLessThanOrEqual(0);
    // Nobody holds it: another editor's change is not refused as the deleter's checkout (409).
    const editor = await t.createUser();
    await grant(t, editor.id, [level], ['view', 'edit']);
    await put(asset, editor.token, { attributes: [{ id: String(TITLE), value: 'after restore' }] }).expect(
      200,
    );
  });

  it('deletes at once with DAM_TRASH_RETENTION_DAYS=0', async () => {
    const other = await TestApp.start({ env: { DAM_TRASH_RETENTION_DAYS: '0' } });
    try {
      const created = await other.http
        .post('/rest/assets')
        .auth(other.adminToken, { type: 'bearer' })
        .send({ accessLevels: [{ id: 1 }] })
        .expect(201);
      await other.http
        .delete(pathOf(created.body.url as string))
        .auth(other.adminToken, { type: 'bearer' })
        .expect(204);
      const list = await other.http
        .get('/rest/admin/trash')
        .auth(other.adminToken, { type: 'bearer' })
        .expect(200);
      expect(list.body).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
