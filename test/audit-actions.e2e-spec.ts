import { DomainEvents } from '@dam/events';
import { InvalidInput } from '@dam/errors';
import { randomBytes } from 'node:crypto';
import { runCli } from '../apps/cli/src/cli';
import { accessLevelRequests } from './helpers/access-level-requests';
import { grant, insertAccessLevel } from './helpers/asset-permission-fixtures';
import { bearerRequests, pathOf } from './helpers/bearer-requests';
import { contentRequests } from './helpers/content-fixtures';
import { createTestDatabase, MATRIX, TestDatabase } from './helpers/databases';
import { postForm } from './helpers/oauth-form';
import { TestApp, TestUser } from './helpers/test-app';

interface Entry {
  actor: string | null;
  action: string;
  target: string | null;
  changes: Record<string, { before: unknown; after: unknown }> | null;
}

/**
 * The audit log beyond assets (DESIGN §12 "Audit", issue 31): downloads, failed logins, users, groups,
 * access levels, categories and webhooks each write one entry with its actor, target and changed fields,
 * no secret ever, and none for a change that rolled back.
 */
describe('audit log: every audited action', () => {
  let t: TestApp;
  let database: TestDatabase;
  let level: number;
  let editor: TestUser;
  let adminUrl: string;
  /** Every password, secret and token a test used: none may appear in the audit log. */
  const secrets: string[] = [];
  const { get, post, put, delete: remove } = bearerRequests(() => t);
  const { newAsset, upload } = contentRequests(() => t);
  const { createLevel } = accessLevelRequests(() => t);
  let refuseGroupUpdates = false;

  beforeAll(async () => {
    database = await createTestDatabase(MATRIX, { migrated: true });
    t = await TestApp.start({ database, env: { DAM_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' } });
    level = await insertAccessLevel(t);
    editor = await t.createUser();
    await grant(t, editor.id, [level], ['view', 'download', 'edit']);
    adminUrl = t.rest(`users/${(await get('/rest/authenticated-user', t.adminToken)).body.id}`);
    secrets.push(t.clientSecret, t.adminToken, editor.password, editor.token);
    // Registered after the audit log's recorder: a 4xx after the change was written rolls it back.
    t.app.get(DomainEvents).addRecorder(async (_manager, events) => {
      if (refuseGroupUpdates && events.some((event) => event.type === 'group.updated'))
        throw new InvalidInput('refused halfway');
    });
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  /** The entries of `action` on `target`, newest first. */
  const entries = async (action: string, target?: string | null): Promise<Entry[]> => {
    const all = (await get(`/rest/admin/audit?action=${action}&pageSize=1000`, t.adminToken).expect(200))
      .body as Entry[];
    return target === undefined ? all : all.filter((entry) => entry.target === target);
  };
  const only = async (action: string, target: string): Promise<Entry> => {
    const found = await entries(action, target);
    expect(found).toHaveLength(1);
    return found[0];
  };

  it('records each download of the original: content, a version and a signed URL, with the downloader', async () => {
    const asset = await newAsset(level);
    await upload(asset, editor.token, Buffer.from('original'), 'a.txt').expect(200);
    const before = (await entries('asset.downloaded', t.baseUrl + asset)).length;
    expect(before).toBe(0);
    await get(`${asset}/content`, editor.token).expect(303);
    await get(`${asset}/versions/1/content`, editor.token).expect(303);
    const signed = await post('/rest/sign-url', editor.token, {
      url: `${t.baseUrl}${asset}/content`,
      expirySeconds: 60,
    }).expect(303);
    const url = new URL(signed.headers.location as string);
    await t.http.get(url.pathname + url.search).expect(303);
    const downloads = await entries('asset.downloaded', t.baseUrl + asset);
    expect(downloads).toHaveLength(3);
    for (const entry of downloads) expect(entry).toMatchObject({ actor: editor.url, changes: null });
    // Refused (no download permission) is no download.
    const viewer = await t.createUser();
    await grant(t, viewer.id, [level], ['view']);
    await get(`${asset}/content`, viewer.token).expect(403);
    expect(await entries('asset.downloaded', t.baseUrl + asset)).toHaveLength(3);
  });

  it('records failed logins without an actor, naming what was tried and never the password or secret', async () => {
    const wrong = `Wrong-${randomBytes(6).toString('hex')}`;
    const unknown = `nobody-${randomBytes(3).toString('hex')}`;
    secrets.push(wrong);
    const login = (username: string, clientSecret = t.clientSecret) =>
      postForm(t, '/oauth/token', {
        grant_type: 'password',
        username,
        password: wrong,
        client_id: t.clientId,
        client_secret: clientSecret,
      });
    await login(editor.username).expect(400);
    await login(unknown).expect(400);
    await login(editor.username, wrong).expect(401);
    expect(await only('login.failed', editor.url)).toMatchObject({
      actor: null,
      changes: { username: { before: null, after: editor.username } },
    });
    const failed = await entries('login.failed');
    expect(failed.find((entry) => entry.changes?.username?.after === unknown)).toMatchObject({
      actor: null,
      target: null,
    });
    expect(failed.find((entry) => entry.changes?.clientId?.after === t.clientId)).toMatchObject({
      actor: null,
      target: adminUrl,
    });
  });

  it('records user writes with their changed fields; a new password is named, never kept', async () => {
    const username = `audited-${randomBytes(3).toString('hex')}`;
    const created = await post(`/rest/users?username=${username}`, t.adminToken, {}).expect(201);
    const user = created.headers.location as string;
    expect(await only('user.created', user)).toMatchObject({
      actor: adminUrl,
      changes: { username: { before: null, after: username }, isAdmin: { before: null, after: false } },
    });
    const password = `Pw-${randomBytes(8).toString('hex')}`;
    secrets.push(password);
    await put(pathOf(user), t.adminToken, { emailAddress: 'a@example.com', password }).expect(200);
    expect((await only('user.updated', user)).changes).toEqual({
      emailAddress: { before: null, after: 'a@example.com' },
      password: { before: null, after: null },
    });
    await remove(pathOf(user), t.adminToken).expect(204);
    expect((await only('user.deleted', user)).changes).toMatchObject({
      username: { before: username, after: null },
      emailAddress: { before: 'a@example.com', after: null },
    });
  });

  it('records groups and their permissions, and access levels, before and after', async () => {
    const other = await createLevel(`audited-${randomBytes(3).toString('hex')}`);
    expect((await only('access-level.created', other.url)).changes).toMatchObject({
      name: { before: null, after: expect.stringMatching(/^audited-/) },
    });
    await put(pathOf(other.url), t.adminToken, { name: 'renamed level' }).expect(200);
    expect((await only('access-level.updated', other.url)).changes).toEqual({
      name: { before: expect.stringMatching(/^audited-/), after: 'renamed level' },
    });
    const group = await post('/rest/groups', t.adminToken, {
      name: 'audited group',
      accessLevelPermissions: [{ accessLevelUrl: other.url, permissions: ['view'] }],
    }).expect(201);
    const groupUrl = group.headers.location as string;
    expect(await only('group.created', groupUrl)).toMatchObject({
      actor: adminUrl,
      changes: { name: { before: null, after: 'audited group' } },
    });
    await put(pathOf(groupUrl), t.adminToken, {
      accessLevelPermissions: [{ accessLevelUrl: other.url, permissions: ['view', 'download'] }],
    }).expect(200);
    expect((await only('group.updated', groupUrl)).changes).toEqual({
      permissions: { before: { [other.id]: ['view'] }, after: { [other.id]: ['download', 'view'] } },
    });
    await remove(pathOf(groupUrl), t.adminToken).expect(204);
    await only('group.deleted', groupUrl);
    await remove(pathOf(other.url), t.adminToken).expect(204);
    expect((await only('access-level.deleted', other.url)).changes).toMatchObject({
      name: { before: 'renamed level', after: null },
    });
  });

  it('records categories: created, renamed and moved, deleted', async () => {
    const parent = (await post('/rest/categories', t.adminToken, { name: 'Parent' }).expect(201)).headers
      .location as string;
    const child = (await post('/rest/categories', t.adminToken, { name: 'Child' }).expect(201)).headers
      .location as string;
    expect((await only('category.created', child)).changes).toEqual({
      name: { before: null, after: 'Child' },
    });
    await put(pathOf(child), t.adminToken, { name: 'Kid', parent }).expect(200);
    expect((await only('category.updated', child)).changes).toEqual({
      name: { before: 'Child', after: 'Kid' },
      parentId: { before: null, after: Number(parent.split('/').pop()) },
    });
    await remove(pathOf(child), t.adminToken).expect(204);
    expect(await only('category.deleted', child)).toMatchObject({ actor: adminUrl });
  });

  it('records webhooks; a rotated secret is named, never its value', async () => {
    const created = await post('/rest/admin/webhooks', t.adminToken, {
      url: 'http://127.0.0.1:9/hook',
      events: ['asset.*'],
    }).expect(201);
    const hook = created.headers.location as string;
    secrets.push(created.body.secret as string);
    expect((await only('webhook.created', hook)).changes).toMatchObject({
      url: { before: null, after: 'http://127.0.0.1:9/hook' },
      events: { before: null, after: ['asset.*'] },
    });
    await put(pathOf(hook), t.adminToken, { description: 'ours' }).expect(200);
    const rotated = await post(`${pathOf(hook)}/secret`, t.adminToken, {}).expect(200);
    secrets.push(rotated.body.secret as string);
    const updates = await entries('webhook.updated', hook);
    expect(updates.map((entry) => entry.changes)).toEqual([
      { secret: { before: null, after: null } },
      { description: { before: null, after: 'ours' } },
    ]);
    await remove(pathOf(hook), t.adminToken).expect(204);
    await only('webhook.deleted', hook);
  });

  it("records the CLI's OAuth client changes: no actor, the client's user as target, never the secret", async () => {
    const env: Record<string, string> = {
      DAM_DATA_DIR: database.dataDir,
      DAM_CLIENT_ID: t.clientId,
      DAM_CLIENT_SECRET: t.clientSecret,
    };
    if (database.databaseUrl !== undefined) env.DATABASE_URL = database.databaseUrl;
    const cli = async (argv: string[]): Promise<string[]> => {
      const stdout: string[] = [];
      expect(await runCli(argv, { env, stdout: (line) => stdout.push(line), stderr: () => undefined })).toBe(
        0,
      );
      return stdout;
    };
    const created = JSON.parse(
      (await cli(['clients:create', '--user', editor.username, '--name', 'ci', '--json'])).join('\n'),
    ) as Record<string, string>;
    const id = created.client_id;
    const rotated = (await cli(['clients:rotate-secret', id]))[1].replace(/^client_secret=/, '');
    secrets.push(created.client_secret, rotated);
    const ofClient = async (action: string) =>
      (await entries(action, editor.url)).filter((entry) => entry.changes?.clientId?.after === id);

    expect(await ofClient('client.created')).toEqual([
      expect.objectContaining({
        actor: null,
        changes: {
          clientId: { before: null, after: id },
          name: { before: null, after: 'ci' },
          secret: { before: null, after: null },
        },
      }),
    ]);
    expect(await ofClient('client.secret-rotated')).toEqual([
      expect.objectContaining({
        actor: null,
        changes: { clientId: { before: id, after: id }, secret: { before: null, after: null } },
      }),
    ]);
  });

  it('writes no entry for a change that rolled back: a 4xx inside the transaction', async () => {
    const group = await post('/rest/groups', t.adminToken, { name: 'kept' }).expect(201);
    const groupUrl = group.headers.location as string;
    refuseGroupUpdates = true;
    try {
      await put(pathOf(groupUrl), t.adminToken, { name: 'never' }).expect(400, 'refused halfway');
    } finally {
      refuseGroupUpdates = false;
    }
    expect(await entries('group.updated', groupUrl)).toEqual([]);
    expect((await get(pathOf(groupUrl), t.adminToken).expect(200)).body.name).toBe('kept');
    // A category moved below itself: refused (400) in the transaction that would have written it.
    const top = (await post('/rest/categories', t.adminToken, { name: 'Top' }).expect(201)).headers
      .location as string;
    const below = (await post('/rest/categories', t.adminToken, { name: 'Below', parent: top }).expect(201))
      .headers.location as string;
    await put(pathOf(top), t.adminToken, { parent: below }).expect(400);
    expect(await entries('category.updated', top)).toEqual([]);
  });

  it('holds no password, secret or token anywhere in its entries', async () => {
    const all = await get('/rest/admin/audit?pageSize=1000', t.adminToken).expect(200);
    expect((all.body as Entry[]).length).toBeGreaterThan(20);
    expect(secrets.length).toBeGreaterThanOrEqual(8);
    for (const secret of secrets) expect(all.text).not.toContain(secret);
    expect(all.text).not.toMatch(/scrypt\$|whsec_|passwordHash/);
  });
});
