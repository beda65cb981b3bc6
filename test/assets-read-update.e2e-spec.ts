import { grant, insertAccessLevel, insertCategory } from './helpers/asset-permission-fixtures';
import { bearerRequests, itRefusesRequestsWithoutAToken, pathOf } from './helpers/bearer-requests';
import { TestApp, TestUser } from './helpers/test-app';

interface AttributeValue {
  id: string;
  name: string;
  value: string;
}

/** Ids of the seeded system attributes on a fresh database (contract of the attributes lib). */
const TITLE = 1;
const DESCRIPTION = 2;
const ORIGINAL_FILENAME = 4;
const DATE_ADDED = 6;
const ADDED_BY = 8;
const ACCESS_LEVELS = 9;
const CATEGORIES = 10;

describe('GET and PUT /rest/assets/{id}', () => {
  let t: TestApp;
  const api = bearerRequests(() => t);
  let level: number;
  let editor: TestUser;
  let viewer: TestUser;
  const custom: Record<string, number> = {};

  const createAsset = async (levels = [level], token = t.adminToken, submit = true): Promise<string> => {
    const response = await api.post('/rest/assets', token, {
      accessLevels: levels.map((id) => ({ id })),
      submit,
    });
    expect(response.status).toBe(201);
    return pathOf(response.body.url as string);
  };
  const valueOf = (body: { attributes: AttributeValue[] }, id: number): string | undefined =>
    body.attributes.find((attribute) => attribute.id === String(id))?.value;
  const put = (path: string, body: object, token = t.adminToken) => api.put(path, token, body);
  const setValues = (path: string, values: Array<[number, string]>, token = t.adminToken) =>
    put(path, { attributes: values.map(([id, value]) => ({ id: String(id), value })) }, token);

  beforeAll(async () => {
    t = await TestApp.start({ env: { DAM_LANGUAGES: 'en,fr' } });
    level = await insertAccessLevel(t);
    editor = await t.createUser();
    viewer = await t.createUser();
    await grant(t, editor.id, [level], ['view', 'edit', 'upload']);
    await grant(t, viewer.id, [level], ['view']);
    const types: Array<[string, number]> = [
      ['date', 3],
      ['datetime', 4],
      ['time', 5],
      ['list', 6],
      ['numeric', 8],
      ['boolean', 9],
      ['keywords', 7],
    ];
    for (const [label, typeId] of types) {
      const created = await api
        .post('/rest/attributes', t.adminToken, { label: `My ${label}`, typeId })
        .expect(201);
      custom[label] = created.body.id as number;
    }
    await api
      .post(`/rest/attributes/${custom.list}/list-attribute-values`, t.adminToken, { value: 'Red' })
      .expect(201);
  });

  afterAll(async () => {
    await t?.close();
  });

  itRefusesRequestsWithoutAToken(
    () => t,
    [
      ['GET', '/rest/assets/1'],
      ['PUT', '/rest/assets/1'],
    ],
  );

  it('shows every field, every attribute (empty when unset) and derived values', async () => {
    const path = await createAsset();
    const body = (await api.get(path, t.adminToken).expect(200)).body;
    const id = body.id as number;
    const base = `${t.baseUrl}/rest/assets/${id}`;
    expect(body).toMatchObject({
      url: base,
      type: 'File',
      accessLevelIds: String(level),
      submitted: true,
      approved: true,
      archived: false,
      parents: [],
      contentUrl: `${base}/content`,
      contentUrlUrl: `${base}/content/url`,
      displayUrl: `${base}/display`,
      thumbnailUrl: `${base}/thumbnail`,
      previewUrl: `${base}/preview`,
      conversionUrl: `${base}/conversion`,
      unwatermarkedLargeImageUrl: `${base}/unwatermarked-large-image`,
    });
    expect(body.assetTypeUrl).toBeUndefined();
    expect(body.attributes.length).toBeGreaterThanOrEqual(17);
    expect(body.attributes[0]).toEqual({ id: String(TITLE), name: 'Title', value: '' });
    expect(valueOf(body, DATE_ADDED)).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
    expect(valueOf(body, ADDED_BY)).toBe('application');
    expect(valueOf(body, ACCESS_LEVELS)).toBe(String(level));
    expect(valueOf(body, CATEGORIES)).toBe('');
  });

  it('is 403 to GET or PUT as another user (?userId=) for a non-admin', async () => {
    const path = await createAsset();
    const read = await api.get(`${path}?userId=${editor.id}`, viewer.token);
    expect(read.status).toBe(403);
    expect(read.headers['content-type']).toMatch(/^text\/plain/);
    expect((await put(`${path}?userId=${editor.id}`, {}, viewer.token)).status).toBe(403);
    const asEditor = await api.get(`${path}?userId=${editor.id}`, t.adminToken).expect(200);
    expect(asEditor.body.id).toBeDefined();
  });

  it('is 404 for unknown ids, malformed ids and assets the actor cannot see', async () => {
    await api.get('/rest/assets/999999', t.adminToken).expect(404);
    await api.get('/rest/assets/abc', t.adminToken).expect(404);
    const hidden = await createAsset([await insertAccessLevel(t)]);
    await api.get(hidden, viewer.token).expect(404);
    await put(hidden, {}, viewer.token).expect(404);
    const unsubmitted = await createAsset([level], t.adminToken, false);
    await api.get(unsubmitted, viewer.token).expect(404);
  });

  it('round-trips GET-modify-PUT and writes only what changed', async () => {
    const path = await createAsset();
    const before = (await api.get(path, editor.token).expect(200)).body;
    const unchanged = await put(path, before, editor.token).expect(200);
    expect(unchanged.body).toEqual(before);
    const modified = {
      ...before,
      attributes: before.attributes.map((attribute: AttributeValue) =>
        attribute.id === String(TITLE) ? { ...attribute, value: 'A title' } : attribute,
      ),
    };
    const after = await put(path, modified, editor.token).expect(200);
    expect(valueOf(after.body, TITLE)).toBe('A title');
    const again = (await api.get(path, viewer.token).expect(200)).body;
    expect(valueOf(again, TITLE)).toBe('A title');
    await put(path, again, editor.token).expect(200);
  });

  it('validates and normalises values per type', async () => {
    const path = await createAsset();
    const response = await setValues(path, [
      [custom.date, '1/2/2024'],
      [custom.datetime, '05/06/2024 07:08:09'],
      [custom.time, '7:05'],
      [custom.list, 'Red'],
      [custom.numeric, '12.5'],
      [custom.boolean, 'TRUE'],
      [custom.keywords, 'cat, dog'],
      [DESCRIPTION, 'Long\ntext'],
    ]).expect(200);
    expect(valueOf(response.body, custom.date)).toBe('01/02/2024');
    expect(valueOf(response.body, custom.datetime)).toBe('05/06/2024 07:08:09');
    expect(valueOf(response.body, custom.time)).toBe('07:05:00');
    expect(valueOf(response.body, custom.list)).toBe('Red');
    expect(valueOf(response.body, custom.numeric)).toBe('12.5');
    expect(valueOf(response.body, custom.boolean)).toBe('true');
    expect(valueOf(response.body, custom.keywords)).toBe('cat, dog');
    expect(valueOf(response.body, DESCRIPTION)).toBe('Long\ntext');
    const cleared = await setValues(path, [[custom.numeric, '']]).expect(200);
    expect(valueOf(cleared.body, custom.numeric)).toBe('');
  });

  it.each([
    ['date', '31/02/2024', 'My date'],
    ['datetime', 'tomorrow', 'My datetime'],
    ['time', '25:00', 'My time'],
    ['numeric', 'ten', 'My numeric'],
    ['boolean', 'yes', 'My boolean'],
    ['list', 'Blue', 'My list'],
  ])('refuses a bad %s value with 400 naming the attribute', async (type, value, label) => {
    const path = await createAsset();
    const response = await setValues(path, [[custom[type], value]]);
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.text).toContain(label);
  });

  it('ignores read-only attributes, lets the later duplicate win and refuses unknown attributes', async () => {
    const path = await createAsset();
    const response = await setValues(path, [
      [ORIGINAL_FILENAME, 'hacked.exe'],
      [DATE_ADDED, '01/01/2000 00:00:00'],
      [ADDED_BY, 'someone'],
      [TITLE, 'first'],
      [TITLE, 'second'],
    ]).expect(200);
    expect(valueOf(response.body, ORIGINAL_FILENAME)).toBe('');
    expect(valueOf(response.body, ADDED_BY)).toBe('application');
    expect(valueOf(response.body, DATE_ADDED)).not.toBe('01/01/2000 00:00:00');
    expect(valueOf(response.body, TITLE)).toBe('second');
    const unknown = await setValues(path, [[999999, 'x']]);
    expect(unknown.status).toBe(400);
    expect((await put(path, { attributes: [{ id: 'abc', value: 'x' }] })).status).toBe(400);
    expect((await put(path, { attributes: 'nope' })).status).toBe(400);
  });

  it('sets access levels and categories through their attributes', async () => {
    const path = await createAsset();
    const second = await insertAccessLevel(t);
    const category = await insertCategory(t);
    const response = await setValues(path, [
      [ACCESS_LEVELS, `${level}, ${second}`],
      [CATEGORIES, String(category)],
    ]).expect(200);
    expect(response.body.accessLevelIds).toBe(`${level},${second}`);
    expect(valueOf(response.body, CATEGORIES)).toBe(String(category));
    const cleared = await setValues(path, [[CATEGORIES, '']]).expect(200);
    expect(valueOf(cleared.body, CATEGORIES)).toBe('');
    for (const bad of ['', 'x', '999999']) {
      expect((await setValues(path, [[ACCESS_LEVELS, bad]])).status).toBe(400);
    }
    expect((await setValues(path, [[ACCESS_LEVELS, '']])).text).toBe(
      'you must supply some access levels to put the asset in',
    );
    expect((await setValues(path, [[CATEGORIES, '999999']])).status).toBe(400);
  });

  it('needs edit on the old levels and upload on the new ones to move an asset', async () => {
    const path = await createAsset();
    const uploadOnly = await insertAccessLevel(t);
    const viewOnly = await insertAccessLevel(t);
    await grant(t, editor.id, [uploadOnly], ['view', 'upload']);
    await grant(t, editor.id, [viewOnly], ['view']);
    expect((await setValues(path, [[ACCESS_LEVELS, String(viewOnly)]], editor.token)).status).toBe(403);
    const moved = await setValues(path, [[ACCESS_LEVELS, String(uploadOnly)]], editor.token).expect(200);
    expect(moved.body.accessLevelIds).toBe(String(uploadOnly));
    // Now the editor lacks edit on the asset's only level.
    expect((await setValues(path, [[TITLE, 'x']], editor.token)).status).toBe(403);
  });

  it('refuses a PUT without edit permission with 403', async () => {
    const path = await createAsset();
    const response = await setValues(path, [[TITLE, 'nope']], viewer.token);
    expect(response.status).toBe(403);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('sets, keeps, clears and validates parents', async () => {
    const child = await createAsset();
    const parent = await createAsset();
    const parentUrl = `${t.baseUrl}${parent}`;
    expect((await put(child, { parents: [parentUrl] }).expect(200)).body.parents).toEqual([parentUrl]);
    expect((await setValues(child, [[TITLE, 'still a child']]).expect(200)).body.parents).toEqual([
      parentUrl,
    ]);
    expect((await put(child, { parents: [] }).expect(200)).body.parents).toEqual([]);
    const hidden = await createAsset([await insertAccessLevel(t)]);
    for (const bad of [
      'not a url',
      `${t.baseUrl}/rest/users/1`,
      `${t.baseUrl}${child}`,
      `${t.baseUrl}/rest/assets/999999`,
    ]) {
      expect((await put(child, { parents: [bad] })).status).toBe(400);
    }
    expect((await put(child, { parents: [`${t.baseUrl}${hidden}`] }, editor.token)).status).toBe(400);
    expect((await put(child, { parents: 'x' })).status).toBe(400);
  });

  it('submits once: false to true is allowed, true to false is a 400', async () => {
    const path = await createAsset([level], editor.token, false);
    const submitted = await put(path, { submitted: true }, editor.token).expect(200);
    expect(submitted.body).toMatchObject({ submitted: true, approved: true });
    await api.get(path, viewer.token).expect(200);
    const refused = await put(path, { submitted: false }, editor.token);
    expect(refused.status).toBe(400);
    expect(refused.text).toBe('an asset that has been submitted cannot be unsubmitted');
    expect((await put(path, { submitted: 'sometimes' })).status).toBe(400);
  });

  it('submitting with only upload-with-approval leaves the asset awaiting approval', async () => {
    const moderated = await insertAccessLevel(t);
    const contributor = await t.createUser();
    await grant(t, contributor.id, [moderated], ['view', 'uploadWithApproval']);
    await grant(t, viewer.id, [moderated], ['view']);
    const path = await createAsset([moderated], contributor.token, false);
    await setValues(path, [[TITLE, 'my draft']], contributor.token).expect(200);
    const submitted = await put(path, { submitted: true }, contributor.token).expect(200);
    expect(submitted.body).toMatchObject({ submitted: true, approved: false });
    await api.get(path, viewer.token).expect(404);
  });

  it('lets only admins archive', async () => {
    const path = await createAsset();
    const current = (await api.get(path, editor.token).expect(200)).body;
    expect((await put(path, { ...current, archived: true }, editor.token)).status).toBe(403);
    await put(path, current, editor.token).expect(200);
    expect((await put(path, { archived: true }).expect(200)).body.archived).toBe(true);
  });

  it('reads labels and text values in the Accept-Language language, writes in Content-Language', async () => {
    await api
      .put(`/rest/attributes/${TITLE}`, t.adminToken, { label: 'Titre' })
      .set('Content-Language', 'fr')
      .expect(200);
    const path = await createAsset();
    await setValues(path, [
      [TITLE, 'English title'],
      [custom.numeric, '7'],
    ]).expect(200);
    await setValues(path, [[TITLE, 'Titre français']])
      .set('Content-Language', 'fr')
      .expect(200);
    const french = (await api.get(path, viewer.token).set('Accept-Language', 'fr-FR, en;q=0.5').expect(200))
      .body;
    expect(french.attributes[0]).toEqual({ id: String(TITLE), name: 'Titre', value: 'Titre français' });
    expect(valueOf(french, custom.numeric)).toBe('7');
    const english = (await api.get(path, viewer.token).set('Accept-Language', 'xx').expect(200)).body;
    expect(english.attributes[0]).toEqual({ id: String(TITLE), name: 'Title', value: 'English title' });
    expect((await setValues(path, [[TITLE, 'x']]).set('Content-Language', 'de')).status).toBe(400);
  });
});
