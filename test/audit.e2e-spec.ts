import { DomainEvents } from '@dam/events';
import { JobContext, JobRegistry, JobSummary } from '@dam/jobs';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { grant, insertAccessLevel } from './helpers/asset-permission-fixtures';
import { bearerRequests, itRefusesRequestsWithoutAToken } from './helpers/bearer-requests';
import { contentRequests } from './helpers/content-fixtures';
import { TestApp, TestUser } from './helpers/test-app';

const TITLE = 1;

interface Entry {
  id: number;
  at: string;
  actor: string | null;
  clientId: string | null;
  action: string;
  target: string;
  requestId: string | null;
  changes: Record<string, { before: unknown; after: unknown }> | null;
}

/** The audit log (DESIGN §12 "Audit"): entries in the change's transaction, the admin list, a history. */
describe('audit log', () => {
  let t: TestApp;
  let level: number;
  let viewer: TestUser;
  let outsider: TestUser;
  let editor: TestUser;
  let failUpdates = false;
  const { get, post, put, delete: remove } = bearerRequests(() => t);
  const { newAsset, upload } = contentRequests(() => t);

  beforeAll(async () => {
    t = await TestApp.start();
    level = await insertAccessLevel(t);
    viewer = await t.createUser();
    outsider = await t.createUser();
    editor = await t.createUser();
    await grant(t, viewer.id, [level], ['view']);
    await grant(t, editor.id, [level], ['view', 'download', 'edit']);
    // Registered after the audit log's: throwing here rolls back the change and its entry.
    t.app.get(DomainEvents).addRecorder(async (_manager, events) => {
      if (failUpdates && events.some((event) => event.type === 'asset.updated')) throw new Error('boom');
    });
  });
  afterAll(() => t?.close());

  const history = async (asset: string, token = t.adminToken): Promise<Entry[]> =>
    (await get(`${asset}/history`, token).expect(200)).body as Entry[];
  const setTitle = (asset: string, title: string, token = t.adminToken) =>
    put(asset, token, { attributes: [{ id: String(TITLE), value: title }] });

  itRefusesRequestsWithoutAToken(
    () => t,
    [
      ['GET', '/rest/admin/audit'],
      ['GET', '/rest/assets/1/history'],
    ],
  );

  it('is for admins (403), the history for whoever sees the asset (404 otherwise)', async () => {
    const asset = await newAsset(level);
    await get('/rest/admin/audit', viewer.token).expect(403);
    await get(`${asset}/history`, outsider.token).expect(404);
    expect((await history(asset, viewer.token)).map((entry) => entry.action)).toEqual([
      'asset.submitted',
      'asset.created',
    ]);
  });

  it('records each change of an asset with its actor, client, request id and the before/after of a title', async () => {
    const asset = await newAsset(level);
    await setTitle(asset, 'first', editor.token).expect(200);
    const retitled = await setTitle(asset, 'second', editor.token)
      .set('X-Request-Id', 'retitle-1')
      .expect(200);
    expect(retitled.headers['x-request-id']).toBe('retitle-1');
    await upload(asset, editor.token, Buffer.from('one'), 'one.txt').expect(200);
    await upload(asset, editor.token, Buffer.from('two'), 'two.txt')
      .set('Upload-As-New-Version', 'true')
      .expect(200);
    await post(`${asset}/versions/1/restore`, editor.token, {}).expect(200);
    await remove(asset, t.adminToken).expect(204);
    const [trashed] = (
      (await get('/rest/admin/trash', t.adminToken).expect(200)).body as Array<{ id: number; asset: string }>
    ).filter((item) => item.asset === `${t.baseUrl}${asset}`);
    await post(`/rest/admin/trash/${trashed.id}/restore`, t.adminToken, {}).expect(200);

    const entries = await history(asset);
    expect(entries.map((entry) => entry.action)).toEqual([
      'asset.restored',
      'asset.trashed',
      'asset.deleted',
      'asset.version.restored',
      'asset.content.replaced',
      'asset.content.replaced',
      'asset.content.replaced',
      'asset.updated',
      'asset.updated',
      'asset.submitted',
      'asset.created',
    ]);
    const second = entries[7];
    expect(second).toMatchObject({
      actor: editor.url,
      target: `${t.baseUrl}${asset}`,
      requestId: 'retitle-1',
      changes: { Title: { before: 'first', after: 'second' } },
    });
    expect(entries[8].changes).toEqual({ Title: { before: null, after: 'first' } });
    expect(entries[10].actor).toBe(
      `${t.baseUrl}/rest/users/${(await get('/rest/authenticated-user', t.adminToken)).body.id}`,
    );
    expect(entries[10].clientId).toBe(t.clientId);
    expect(new Date(second.at).getTime()).not.toBeNaN();
  });

  it('leaves no entry for a change that rolled back', async () => {
    const asset = await newAsset(level);
    failUpdates = true;
    try {
      await setTitle(asset, 'never').expect(500);
    } finally {
      failUpdates = false;
    }
    expect((await history(asset)).map((entry) => entry.action)).toEqual(['asset.submitted', 'asset.created']);
    const body = (await get(asset, t.adminToken).expect(200)).body as {
      attributes: Array<{ id: string; value: string }>;
    };
    expect(body.attributes.find((attribute) => attribute.id === String(TITLE))?.value ?? '').toBe('');
  });

  it('filters by asset, actor, action and time, newest first with a cursor in Link', async () => {
    const asset = await newAsset(level);
    const assetId = asset.split('/').pop() as string;
    for (const title of ['a', 'b', 'c']) await setTitle(asset, title, editor.token).expect(200);
    const query = `assetId=${assetId}&userId=${editor.id}&action=asset.updated`;
    const first = await get(`/rest/admin/audit?${query}&pageSize=2`, t.adminToken).expect(200);
    expect((first.body as Entry[]).map((entry) => entry.changes?.Title?.after)).toEqual(['c', 'b']);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.link as string)?.[1] as string;
    expect(next).toContain('cursor=');
    const rest = await get(new URL(next).pathname + new URL(next).search, t.adminToken).expect(200);
    expect((rest.body as Entry[]).map((entry) => entry.changes?.Title?.after)).toEqual(['a']);
    expect(rest.headers.link).toBeUndefined();
    const future = new Date(Date.now() + 3_600_000).toISOString();
    await get(`/rest/admin/audit?${query}&since=${future}`, t.adminToken).expect(200, []);
    expect(
      (await get(`/rest/admin/audit?${query}&until=${future}`, t.adminToken).expect(200)).body,
    ).toHaveLength(3);
    for (const bad of ['since=yesterday', 'assetId=x', 'pageSize=0', 'cursor=-1']) {
      await get(`/rest/admin/audit?${bad}`, t.adminToken).expect(400);
    }
    const xml = await get(`/rest/admin/audit?${query}`, t.adminToken)
      .set('Accept', 'application/xml')
      .expect(200);
    expect(xml.text).toContain('<auditEntries');
  });

  it('never holds a secret: a password change is recorded without it', async () => {
    const user = await t.createUser();
    const password = `S3cret-${randomBytes(6).toString('hex')}`;
    await put(`/rest/users/${user.id}`, t.adminToken, { password }).expect(200);
    const entries = (await get(`/rest/admin/audit?action=user.updated`, t.adminToken).expect(200))
      .body as Entry[];
    expect(entries.some((entry) => entry.target === user.url)).toBe(true);
    const all = await get('/rest/admin/audit?pageSize=1000', t.adminToken).expect(200);
    expect(all.text).not.toContain(password);
  });

  it('purge-audit deletes the entries past DAM_AUDIT_RETENTION_DAYS', async () => {
    const asset = await newAsset(level);
    const assetId = Number(asset.split('/').pop());
    await t.app
      .get(DataSource)
      .createQueryBuilder()
      .update('audit_entries')
      .set({ at: new Date(Date.now() - 400 * 86_400_000) })
      .where('target_type = :type AND target_id = :id', { type: 'assets', id: assetId })
      .execute();
    const job = t.app.get(JobRegistry).get('purge-audit');
    const summary: JobSummary = { examined: 0, changed: 0, reported: 0, details: [] };
    const context: JobContext = {
      dryRun: false,
      summary,
      note: () => undefined,
      checkpoint: async () => undefined,
    };
    await job?.run(context);
    expect(summary.changed).toBeGreaterThanOrEqual(1);
    expect(await history(asset)).toEqual([]);
  });
});
