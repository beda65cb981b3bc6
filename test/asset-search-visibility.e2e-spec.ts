import { bearerRequests } from './helpers/bearer-requests';
import { grant } from './helpers/asset-permission-fixtures';
import { assetFactory, ATTRIBUTE, SearchWorld, searcher } from './helpers/search-fixtures';
import { TestApp, TestUser } from './helpers/test-app';

describe('GET /rest/asset-search: visibility, acting as others and the index kept current', () => {
  let t: TestApp;
  let w: SearchWorld;
  let editor: TestUser;
  const api = bearerRequests(() => t);
  const createAsset = assetFactory(() => t);
  const a: Record<string, number> = {};

  const search = searcher(() => t);
  const title = (value: string): Array<[number, string]> => [[ATTRIBUTE.title, value]];

  beforeAll(async () => {
    t = await TestApp.start();
    w = await SearchWorld.create(t);
    editor = await t.createUser();
    await grant(t, editor.id, [w.levelA], ['view', 'editWithApproval']);
    a.live = await createAsset({ levels: [w.levelA], values: title('Shared bridge') });
    a.pending = await createAsset({
      levels: [w.levelA],
      token: w.uploader.token,
      values: title('Pending bridge'),
    });
    a.draft = await createAsset({
      levels: [w.levelA],
      token: w.uploader.token,
      submit: false,
      values: title('Draft bridge'),
    });
    a.elsewhere = await createAsset({ levels: [w.levelB], values: title('Elsewhere bridge') });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('shows others only live assets in levels they may view, exactly as GET does (unsubmitted ones on request)', async () => {
    // By default search leaves unsubmitted assets (the draft) out; unsubmitted=true lists them alone.
    const both = async (token?: string) => [
      ...(await search('keywords=bridge', token)),
      ...(await search('keywords=bridge&unsubmitted=true', token)),
    ];
    expect(await search('keywords=bridge')).toEqual([a.live, a.pending, a.elsewhere]);
    expect(await both()).toEqual([a.live, a.pending, a.elsewhere, a.draft]);
    expect(await both(w.viewer.token)).toEqual([a.live]);
    expect(await both(w.other.token)).toEqual([a.elsewhere]);
    expect(await search('keywords=bridge', w.uploader.token)).toEqual([a.live, a.pending]);
    expect(await both(w.uploader.token)).toEqual([a.live, a.pending, a.draft]);
    expect(await both(w.approver.token)).toEqual([a.live, a.pending, a.draft]);
    for (const [user, visible] of [
      [w.viewer, [a.live]],
      [w.uploader, [a.live, a.pending, a.draft]],
    ] as const) {
      for (const id of Object.values(a)) {
        const status = (await api.get(`/rest/assets/${id}`, user.token)).status;
        expect(status).toBe((visible as readonly number[]).includes(id) ? 200 : 404);
      }
    }
  });

  it('counts only what the searcher sees in X-Total-Count', async () => {
    const response = await api.get('/rest/asset-search?keywords=bridge', w.viewer.token).expect(200);
    expect(response.headers['x-total-count']).toBe('1');
  });

  it('searches as the user named by userId or username (administrators and the application user)', async () => {
    expect(await search(`keywords=bridge&userId=${w.viewer.id}`)).toEqual([a.live]);
    expect(await search(`keywords=bridge&username=${w.uploader.username}`)).toEqual([a.live, a.pending]);
    expect(await search(`keywords=bridge&unsubmitted=true&username=${w.uploader.username}`)).toEqual([
      a.draft,
    ]);
    expect(await search(`keywords=bridge&username=${w.viewer.username}`, w.viewer.token)).toEqual([a.live]);
    expect(await search(`keywords=bridge&userId=${w.viewer.id}&username=${w.viewer.username}`)).toEqual([
      a.live,
    ]);
  });

  it('refuses acting as someone else to non-administrators (403) and unknown or clashing users (400)', async () => {
    await api.get(`/rest/asset-search?username=${w.other.username}`, w.viewer.token).expect(403);
    await api.get(`/rest/asset-search?userId=${w.other.id}`, w.viewer.token).expect(403);
    const unknown = await api.get('/rest/asset-search?username=nobody-here', t.adminToken).expect(400);
    expect(unknown.text).toBe('username "nobody-here" does not name a user');
    const clash = await api
      .get(`/rest/asset-search?userId=${w.viewer.id}&username=${w.other.username}`, t.adminToken)
      .expect(400);
    expect(clash.text).toBe('userId and username name different users');
  });

  it('filters by approval status and by submission, leaving unsubmitted assets out unless asked for', async () => {
    expect(await search('keywords=bridge&approvalStatuses=none')).toEqual([a.pending]);
    expect(await search('keywords=bridge&approvalStatuses=full')).toEqual([a.live, a.elsewhere]);
    expect(await search('keywords=bridge&approvalStatuses=full,none')).toEqual([
      a.live,
      a.pending,
      a.elsewhere,
    ]);
    expect(await search('keywords=bridge&unsubmitted=true')).toEqual([a.draft]);
    expect(await search('keywords=bridge&unsubmitted=true&approvalStatuses=full')).toEqual([a.draft]);
    expect(await search('keywords=bridge&unsubmitted=true&approvalStatuses=none')).toEqual([]);
    expect(await search('keywords=bridge&unsubmitted=true', w.uploader.token)).toEqual([a.draft]);
    expect(await search('keywords=bridge&unsubmitted=true', w.viewer.token)).toEqual([]);
    expect(await search('keywords=bridge&unsubmitted=false')).toEqual([a.live, a.pending, a.elsewhere]);
    const bad = await api.get('/rest/asset-search?approvalStatuses=partial', t.adminToken).expect(400);
    expect(bad.text).toBe('approvalStatuses must be full or none, not "partial"');
  });

  it('indexes edits in the same transaction, pending edits only once approved', async () => {
    await api
      .put(`/rest/assets/${a.live}`, editor.token, {
        attributes: [{ id: String(ATTRIBUTE.title), value: 'Shared viaduct' }],
      })
      .expect(200);
    expect(await search('keywords=viaduct')).toEqual([]);
    expect(await search('keywords=bridge&approvalStatuses=none')).toEqual([a.live, a.pending]);
    await api.post(`/rest/assets/${a.live}/approve`, t.adminToken, {}).expect(200);
    expect(await search('keywords=viaduct')).toEqual([a.live]);
    expect(await search('keywords=shared AND bridge')).toEqual([]);

    await api
      .put(`/rest/assets/${a.elsewhere}`, t.adminToken, {
        attributes: [{ id: String(ATTRIBUTE.title), value: '' }],
      })
      .expect(200);
    expect(await search('keywords=elsewhere')).toEqual([]);
    await api.delete(`/rest/assets/${a.elsewhere}`, t.adminToken).expect(204);
    expect(await search('keywords=bridge', w.other.token)).toEqual([]);
  });
});
