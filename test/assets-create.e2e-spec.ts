import { DataSource } from 'typeorm';
import { grant, insertAccessLevel } from './helpers/asset-permission-fixtures';
import { bearerRequests, itRefusesRequestsWithoutAToken, pathOf } from './helpers/bearer-requests';
import { TestApp, TestUser } from './helpers/test-app';

const NO_LEVELS = 'you must supply some access levels to put the asset in';

function expectPlainText(
  response: { status: number; headers: Record<string, string>; text: string },
  status: number,
) {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toMatch(/^text\/plain; charset=utf-8/);
}

describe('POST /rest/assets', () => {
  let t: TestApp;
  const api = bearerRequests(() => t);
  let level: number;
  let uploader: TestUser;

  beforeAll(async () => {
    t = await TestApp.start();
    level = await insertAccessLevel(t);
    uploader = await t.createUser();
    await grant(t, uploader.id, [level], ['view', 'upload']);
  });

  afterAll(async () => {
    await t?.close();
  });

  const assetCount = async (): Promise<number> => {
    const [row]: Array<{ n: number | string }> = await t.app
      .get(DataSource)
      .query('SELECT COUNT(*) AS n FROM assets');
    return Number(row.n);
  };

  const postXml = (xml: string, token = t.adminToken) =>
    t.http
      .post('/rest/assets')
      .auth(token, { type: 'bearer' })
      .set('Content-Type', 'application/xml')
      .send(xml);

  itRefusesRequestsWithoutAToken(() => t, [['POST', '/rest/assets']]);

  it('creates from JSON: 201, Location and the representation', async () => {
    const response = await api.post('/rest/assets', uploader.token, {
      accessLevels: [{ id: level, name: 'ignored' }],
    });
    expect(response.status).toBe(201);
    expect(response.headers.location).toBe(response.body.url);
    expect(response.body).toMatchObject({
      id: expect.any(Number),
      url: `${t.baseUrl}/rest/assets/${response.body.id}`,
      type: 'File',
      accessLevelIds: String(level),
      submitted: true,
      approved: true,
      archived: false,
      parents: [],
      contentUrl: `${t.baseUrl}/rest/assets/${response.body.id}/content`,
      contentUrlUrl: `${t.baseUrl}/rest/assets/${response.body.id}/content/url`,
    });
    const addedBy = response.body.attributes.find((a: { name: string }) => a.name === 'Added by');
    expect(addedBy.value).toBe(uploader.username);
    await api.get(pathOf(response.headers.location), uploader.token).expect(200);
  });

  it('takes submit as a boolean or a string', async () => {
    const asBoolean = await api.post('/rest/assets', uploader.token, {
      accessLevels: [{ id: level }],
      submit: false,
    });
    expect(asBoolean.body.submitted).toBe(false);
    const asString = await api.post('/rest/assets', uploader.token, {
      accessLevels: [{ id: level }],
      submit: 'false',
    });
    expect(asString.body.submitted).toBe(false);
    const bad = await api.post('/rest/assets', uploader.token, {
      accessLevels: [{ id: level }],
      submit: 'maybe',
    });
    expectPlainText(bad, 400);
  });

  it('creates from XML, reading only the access level ids', async () => {
    const xml =
      '<?xml version="1.0" encoding="UTF-8"?><createAsset><accessLevels>' +
      `<accessLevel><id>${level}</id><name>ignored</name></accessLevel>` +
      `</accessLevels><submit>false</submit></createAsset>`;
    const response = await postXml(xml, uploader.token).expect(201);
    expect(response.body).toMatchObject({ accessLevelIds: String(level), submitted: false });
  });

  it('creates from XML as another user named by createAsUserId', async () => {
    const xml = `<createAsset><accessLevels><accessLevel><id>${level}</id></accessLevel></accessLevels><createAsUserId>${uploader.id}</createAsUserId></createAsset>`;
    const response = await postXml(xml).expect(201);
    expect(response.body.attributes.find((a: { name: string }) => a.name === 'Added by').value).toBe(
      uploader.username,
    );
  });

  /** Ten levels of ten: expanded, one reference would be 10^10 characters. */
  const billionLaughs =
    '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol0 "lol">' +
    Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('') +
    ']><createAsset><accessLevels><accessLevel><id>&lol9;</id></accessLevel></accessLevels></createAsset>';
  const levels = '<accessLevels><accessLevel><id>LEVEL</id></accessLevel></accessLevels>';

  it.each([
    ['a DOCTYPE', '<?xml version="1.0"?><!DOCTYPE createAsset [<!ENTITY x "y">]><createAsset/>'],
    ['an ENTITY', '<createAsset><!ENTITY lol "lol"></createAsset>'],
    [
      'a billion-laughs document',
      '<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>' +
        '<createAsset><accessLevels><accessLevel><id>&lol2;</id></accessLevel></accessLevels></createAsset>',
    ],
    ['a ten-level billion-laughs document', billionLaughs],
    [
      'an external entity naming /etc/passwd',
      '<?xml version="1.0"?><!DOCTYPE createAsset [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>' +
        `<createAsset>${levels}<submit>&xxe;</submit><assetTypeUrl>&xxe;</assetTypeUrl></createAsset>`,
    ],
    [
      'an external parameter entity',
      '<!DOCTYPE createAsset [<!ENTITY % remote SYSTEM "http://127.0.0.1:9/evil.dtd"> %remote;]>' +
        `<createAsset>${levels}</createAsset>`,
    ],
    [
      'a lower-case doctype',
      `<!doctype createAsset SYSTEM "file:///etc/passwd"><createAsset>${levels}</createAsset>`,
    ],
  ])(
    'refuses XML with %s with 400 before parsing: fast, nothing created, nothing echoed',
    async (_name, xml) => {
      const assetsBefore = await assetCount();
      const started = Date.now();
      const response = await postXml(xml.replace('LEVEL', String(level)));
      expectPlainText(response, 400);
      expect(response.text).toBe('XML documents with a DOCTYPE or ENTITY declaration are not accepted');
      expect(Date.now() - started).toBeLessThan(2000);
      expect(response.text).not.toMatch(/root:|lollol/);
      expect(await assetCount()).toBe(assetsBefore);
    },
  );

  it('refuses an external entity in a UTF-16 document as well', async () => {
    const assetsBefore = await assetCount();
    const xml = `<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE c [<!ENTITY x SYSTEM "file:///etc/passwd">]><createAsset>${levels.replace('LEVEL', String(level))}<submit>&x;</submit></createAsset>`;
    const response = await t.http
      .post('/rest/assets')
      .auth(t.adminToken, { type: 'bearer' })
      .set('Content-Type', 'application/xml; charset=utf-16')
      .send(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, 'utf16le')]));
    expectPlainText(response, 400);
    expect(response.text).not.toMatch(/root:/);
    expect(await assetCount()).toBe(assetsBefore);
  });

  it('refuses malformed XML and other roots with 400', async () => {
    expectPlainText(await postXml('<createAsset><accessLevels>'), 400);
    expectPlainText(await postXml(`<asset><id>${level}</id></asset>`), 400);
    expectPlainText(await postXml('<createAsset><x>&undefined;</x></createAsset>'), 400);
  });

  it.each([
    ['absent', {}],
    ['empty', { accessLevels: [] }],
  ])('answers exactly "%s access levels" with the spec text', async (_name, body) => {
    const response = await api.post('/rest/assets', t.adminToken, body);
    expectPlainText(response, 400);
    expect(response.text).toBe(NO_LEVELS);
  });

  it('answers the spec text for an XML request without access levels', async () => {
    const response = await postXml('<createAsset><accessLevels></accessLevels></createAsset>');
    expectPlainText(response, 400);
    expect(response.text).toBe(NO_LEVELS);
  });

  it('refuses unknown levels, malformed ids and levels with children that are not always assignable', async () => {
    const unknown = await api.post('/rest/assets', t.adminToken, { accessLevels: [{ id: 999999 }] });
    expectPlainText(unknown, 400);
    expectPlainText(await api.post('/rest/assets', t.adminToken, { accessLevels: [{ id: 'abc' }] }), 400);
    const parent = await insertAccessLevel(t);
    await insertAccessLevel(t, { parentId: parent });
    const withChildren = await api.post('/rest/assets', t.adminToken, { accessLevels: [{ id: parent }] });
    expectPlainText(withChildren, 400);
    expect(withChildren.text).toContain('not always assignable');
    const assignable = await insertAccessLevel(t, { isAlwaysAssignable: true });
    await insertAccessLevel(t, { parentId: assignable });
    await api.post('/rest/assets', t.adminToken, { accessLevels: [{ id: assignable }] }).expect(201);
  });

  it('refuses a user without upload permission on every level with 403', async () => {
    const other = await insertAccessLevel(t);
    const partial = await api.post('/rest/assets', uploader.token, {
      accessLevels: [{ id: level }, { id: other }],
    });
    expectPlainText(partial, 403);
    const stranger = await t.createUser();
    expectPlainText(await api.post('/rest/assets', stranger.token, { accessLevels: [{ id: level }] }), 403);
  });

  it('lets only admins and the application user create as someone else', async () => {
    const admin = await t.createUser({ admin: true });
    await api
      .post('/rest/assets', admin.token, {
        accessLevels: [{ id: level }],
        createAsUserId: String(uploader.id),
      })
      .expect(201);
    const other = await t.createUser();
    const refused = await api.post('/rest/assets', uploader.token, {
      accessLevels: [{ id: level }],
      createAsUserId: other.id,
    });
    expectPlainText(refused, 403);
    await api
      .post('/rest/assets', uploader.token, { accessLevels: [{ id: level }], createAsUserId: uploader.id })
      .expect(201);
  });

  it('applies the named user permissions when creating as them', async () => {
    const powerless = await t.createUser();
    const response = await api.post('/rest/assets', t.adminToken, {
      accessLevels: [{ id: level }],
      createAsUserId: powerless.id,
    });
    expectPlainText(response, 403);
  });

  it('hides an asset uploaded with approval from others until it is approved', async () => {
    const moderated = await insertAccessLevel(t);
    const contributor = await t.createUser();
    const viewer = await t.createUser();
    await grant(t, contributor.id, [moderated], ['view', 'uploadWithApproval']);
    await grant(t, viewer.id, [moderated], ['view']);
    const created = await api
      .post('/rest/assets', contributor.token, { accessLevels: [{ id: moderated }] })
      .expect(201);
    expect(created.body).toMatchObject({ submitted: true, approved: false });
    const path = pathOf(created.body.url);
    await api.get(path, contributor.token).expect(200);
    await api.get(path, t.adminToken).expect(200);
    expectPlainText(await api.get(path, viewer.token), 404);
    await api.post(`${path}/approve`, t.adminToken, {}).expect(200);
    const approved = await api.get(path, viewer.token).expect(200);
    expect(approved.body.approved).toBe(true);
  });
});

describe('POST /rest/assets with asset types enabled', () => {
  let t: TestApp;
  const api = bearerRequests(() => t);

  beforeAll(async () => {
    t = await TestApp.start({ env: { DAM_ASSET_TYPES_ENABLED: 'true' } });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('answers exactly "you must provide an asset type" without one', async () => {
    const level = await insertAccessLevel(t);
    const response = await api.post('/rest/assets', t.adminToken, { accessLevels: [{ id: level }] });
    expectPlainText(response, 400);
    expect(response.text).toBe('you must provide an asset type');
  });

  it('keeps the asset type it was given and refuses URLs that name none', async () => {
    const level = await insertAccessLevel(t);
    const assetTypeUrl = `${t.baseUrl}/rest/asset-types/2`;
    const created = await api.post('/rest/assets', t.adminToken, {
      accessLevels: [{ id: level }],
      assetTypeUrl,
    });
    expect(created.status).toBe(201);
    expect(created.body.assetTypeUrl).toBe(assetTypeUrl);
    const xml = `<createAsset><accessLevels><accessLevel><id>${level}</id></accessLevel></accessLevels><assetTypeUrl>${assetTypeUrl}</assetTypeUrl></createAsset>`;
    await t.http
      .post('/rest/assets')
      .auth(t.adminToken, { type: 'bearer' })
      .set('Content-Type', 'application/xml')
      .send(xml)
      .expect(201);
    for (const bad of [`${t.baseUrl}/rest/asset-types/999`, `${t.baseUrl}/rest/users/1`, 'nonsense']) {
      expectPlainText(
        await api.post('/rest/assets', t.adminToken, { accessLevels: [{ id: level }], assetTypeUrl: bad }),
        400,
      );
    }
  });
});
