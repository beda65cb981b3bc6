import { bearerRequests, itRefusesRequestsWithoutAToken, pathOf } from './helpers/bearer-requests';
import { assetFactory, ATTRIBUTE, SearchWorld } from './helpers/search-fixtures';
import { TestApp } from './helpers/test-app';

interface LogBody {
  events: Array<{ assetId: number; type: string }>;
  nextStartSequence: number;
}

describe('/rest/publishing-actions', () => {
  let t: TestApp;
  let w: SearchWorld;
  const api = bearerRequests(() => t);
  const createAsset = assetFactory(() => t);
  const a: Record<string, number> = {};
  let actionPath: string;

  const run = async (id: number): Promise<void> => {
    const response = await api
      .post('/rest/publishing-actions', t.adminToken, { publishingActionId: id })
      .expect(303);
    expect(response.headers.location).toBe(t.rest(`publishing-actions/${id}`));
  };
  const log = async (start?: number): Promise<LogBody> =>
    (
      await api
        .get(`${actionPath}/log${start === undefined ? '' : `?startSequence=${start}`}`, t.adminToken)
        .expect(200)
    ).body as LogBody;
  const actionId = (): number => Number(actionPath.split('/').pop());

  beforeAll(async () => {
    t = await TestApp.start();
    w = await SearchWorld.create(t);
    a.red = await createAsset({ levels: [w.levelA], values: [[w.colour, 'Red']] });
    a.blue = await createAsset({ levels: [w.levelA], values: [[w.colour, 'Blue']] });
    a.redToo = await createAsset({ levels: [w.levelB], values: [[w.colour, 'Red']] });
    const created = await api
      .post('/rest/publishing-actions', t.adminToken, {
        name: 'Red things',
        criteria: `attribute_${w.colour}=Red`,
      })
      .expect(201);
    actionPath = pathOf(created.headers.location as string);
  });

  afterAll(async () => {
    await t?.close();
  });

  itRefusesRequestsWithoutAToken(
    () => t,
    [
      ['GET', '/rest/publishing-actions'],
      ['POST', '/rest/publishing-actions'],
      ['GET', '/rest/publishing-actions/1'],
      ['DELETE', '/rest/publishing-actions/1'],
      ['GET', '/rest/publishing-actions/1/log'],
    ],
  );

  it('is 403 on every route for users who are not administrators', async () => {
    const token = w.viewer.token;
    await api.get('/rest/publishing-actions', token).expect(403);
    await api.post('/rest/publishing-actions', token, { name: 'x', criteria: 'keywords=x' }).expect(403);
    await api.post('/rest/publishing-actions', token, { publishingActionId: actionId() }).expect(403);
    await api.get(actionPath, token).expect(403);
    await api.get(`${actionPath}/log`, token).expect(403);
    await api.delete(actionPath, token).expect(403);
  });

  it('shows an action as {name, logUrl} (with url, id and the criteria) and lists it; the root links it', async () => {
    const action = (await api.get(actionPath, t.adminToken).expect(200)).body;
    expect(action).toEqual({
      url: t.rest(`publishing-actions/${actionId()}`),
      id: actionId(),
      name: 'Red things',
      criteria: `attribute_${w.colour}=Red`,
      logUrl: t.rest(`publishing-actions/${actionId()}/log`),
    });
    expect((await api.get('/rest/publishing-actions', t.adminToken).expect(200)).body).toContainEqual(action);
    const root = await api.get('/rest', t.adminToken).expect(200);
    expect(root.body.api_version_1_3.publishingActionsUrl).toBe(t.rest('publishing-actions'));
  });

  it('takes criteria as an object of search parameters too, and refuses bad ones with 400', async () => {
    const created = await api
      .post('/rest/publishing-actions', t.adminToken, {
        name: 'In A',
        criteria: { 'permissionCategoryForm.categoryIds': [w.levelA], includeImplicitCategoryMembers: true },
      })
      .expect(201);
    expect(created.body.criteria).toBe(
      `permissionCategoryForm.categoryIds=${w.levelA}&includeImplicitCategoryMembers=true`,
    );
    const refused = async (body: object): Promise<string> =>
      (await api.post('/rest/publishing-actions', t.adminToken, body).expect(400)).text;
    expect(await refused({ name: 'x', criteria: 'attribute_9999=1' })).toBe(
      'attribute_9999 names no attribute',
    );
    expect(await refused({ name: 'x', criteria: 'keywords=x&pageSize=5' })).toMatch(
      /criteria may not contain pageSize/,
    );
    expect(await refused({ name: 'x', criteria: 'assetIds=9-1' })).toMatch(/runs backwards/);
    expect(await refused({ name: 'x', criteria: ['keywords=x'] })).toMatch(/criteria must be/);
    expect(await refused({ name: 'x', criteria: { keywords: { nested: true } } })).toMatch(
      /criteria keywords must be/,
    );
    expect(await refused({ name: 'x' })).toMatch(/you must supply criteria/);
    expect(await refused({ criteria: 'keywords=x' })).toMatch(/you must supply a name/);
    expect(await refused({ publishingActionId: 'one' })).toBe('publishingActionId must be a whole number');
  });

  it('logs what entered and left the result set run by run, with increasing sequence numbers', async () => {
    expect(await log()).toEqual({ events: [], nextStartSequence: 0 });
    await run(actionId());
    const first = await log();
    expect(first.events).toEqual([
      { assetId: a.red, type: 'PUBLISH' },
      { assetId: a.redToo, type: 'PUBLISH' },
    ]);
    expect(first.nextStartSequence).toBe(3);

    await api
      .put(`/rest/assets/${a.red}`, t.adminToken, { attributes: [{ id: String(w.colour), value: 'Blue' }] })
      .expect(200);
    a.newRed = await createAsset({ levels: [w.levelB], values: [[w.colour, 'Red']] });
    await api.delete(`/rest/assets/${a.redToo}`, t.adminToken).expect(204);
    await run(actionId());
    const second = await log(first.nextStartSequence);
    expect(second.events).toEqual([
      { assetId: a.newRed, type: 'PUBLISH' },
      { assetId: a.red, type: 'UNPUBLISH' },
      { assetId: a.redToo, type: 'UNPUBLISH' },
    ]);
    expect(second.nextStartSequence).toBe(6);

    await run(actionId());
    expect(await log(second.nextStartSequence)).toEqual({ events: [], nextStartSequence: 6 });
    expect((await log(0)).events).toHaveLength(5);
    expect((await log(5)).events).toEqual([{ assetId: a.redToo, type: 'UNPUBLISH' }]);
  });

  it('does not log a change twice when runs of one action overlap', async () => {
    const before = (await log()).nextStartSequence;
    a.another = await createAsset({
      levels: [w.levelA],
      values: [
        [w.colour, 'Red'],
        [ATTRIBUTE.title, 'Another'],
      ],
    });
    await Promise.all([run(actionId()), run(actionId()), run(actionId())]);
    expect((await log(before)).events).toEqual([{ assetId: a.another, type: 'PUBLISH' }]);
  });

  it('answers 404 for unknown actions and 400 for a bad startSequence; DELETE removes an action', async () => {
    await api.post('/rest/publishing-actions', t.adminToken, { publishingActionId: 9999 }).expect(404);
    await api.get('/rest/publishing-actions/9999', t.adminToken).expect(404);
    await api.get('/rest/publishing-actions/9999/log', t.adminToken).expect(404);
    await api.delete('/rest/publishing-actions/9999', t.adminToken).expect(404);
    const bad = await api.get(`${actionPath}/log?startSequence=-1`, t.adminToken).expect(400);
    expect(bad.text).toBe('startSequence must be a whole number of at least 0');
    await api.delete(actionPath, t.adminToken).expect(204);
    await api.get(actionPath, t.adminToken).expect(404);
  });
});
