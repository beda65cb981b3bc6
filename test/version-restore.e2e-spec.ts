import { AssetVersionRepresentation } from '@dam/asset-content';
import { CHECKED_OUT_TO_ANOTHER_USER } from '@dam/checkout';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { bearerRequests, itRefusesRequestsWithoutAToken } from './helpers/bearer-requests';
import { contentRequests, defaultLevelWith, fetchSigned } from './helpers/content-fixtures';
import { Grants } from './helpers/grant-fixtures';
import { TestApp, TestUser } from './helpers/test-app';

type Version = AssetVersionRepresentation;

/** POST /rest/assets/{id}/versions/{version}/restore (DESIGN §12 "Version restore"). */
describe('version restore', () => {
  let t: TestApp;
  let level: number;
  let viewer: TestUser;
  let editor: TestUser;
  let approvalEditor: TestUser;
  let outsider: TestUser;
  const events: string[] = [];
  const { get, post, put } = bearerRequests(() => t);
  const { newAsset, upload } = contentRequests(() => t);

  beforeAll(async () => {
    t = await TestApp.start();
    const grants = new Grants(t);
    ({
      level,
      users: [viewer, editor, approvalEditor],
    } = await defaultLevelWith(t, grants, [
      ['view', 'download'],
      ['view', 'download', 'edit'],
      ['view', 'download', 'editWithApproval'],
    ]));
    outsider = await t.createUser();
    t.app.get(EventEmitter2).on('asset.**', (event: { type: string }) => events.push(event.type));
  });
  afterAll(() => t?.close());

  /** An asset with versions 1 ('one') and 2 ('two!'). */
  async function twoVersions(): Promise<string> {
    const asset = await newAsset(level);
    await upload(asset, t.adminToken, Buffer.from('one'), 'v1.txt').expect(200);
    await upload(asset, t.adminToken, Buffer.from('two!'), 'v2.txt')
      .set('Upload-As-New-Version', 'true')
      .expect(200);
    return asset;
  }

  async function current(asset: string): Promise<string> {
    const redirect = await get(`${asset}/content`, t.adminToken).redirects(0).expect(303);
    return (await fetchSigned(redirect.headers.location as string)).body.toString();
  }

  const summary = (versions: Version[]) =>
    versions.map(({ version, current, originalFilename, fileSize }) => [
      version,
      current,
      originalFilename,
      fileSize,
    ]);

  itRefusesRequestsWithoutAToken(() => t, [['POST', '/rest/assets/1/versions/1/restore']]);

  it('makes the old file the current content as a new version, keeping the history', async () => {
    const asset = await twoVersions();
    events.length = 0;
    const response = await post(`${asset}/versions/1/restore`, editor.token, {}).expect(200);
    expect(summary(response.body as Version[])).toEqual([
      [1, false, 'v1.txt', 3],
      [2, false, 'v2.txt', 4],
      [3, true, 'v1.txt', 3],
    ]);
    expect(await current(asset)).toBe('one');
    expect(events).toEqual(expect.arrayContaining(['asset.content-replaced', 'asset.version.restored']));
    const versions = (await get(`${asset}/versions`, viewer.token).expect(200)).body as Version[];
    expect(versions).toEqual(response.body);
    const xml = await post(`${asset}/versions/2/restore`, t.adminToken, {})
      .set('Accept', 'application/xml')
      .expect(200);
    expect(xml.text).toContain('<assetVersions');
    expect(await current(asset)).toBe('two!');
  });

  it('stores it pending under edit-with-approval, current once approved', async () => {
    const asset = await twoVersions();
    const response = await post(`${asset}/versions/1/restore`, approvalEditor.token, {}).expect(200);
    expect(summary(response.body as Version[])).toEqual([
      [1, false, 'v1.txt', 3],
      [2, true, 'v2.txt', 4],
    ]);
    expect(await current(asset)).toBe('two!');
    await post(`${asset}/approve`, t.adminToken, {}).expect(200);
    expect(await current(asset)).toBe('one');
  });

  it('is 403 without edit, 404 for an asset one cannot see or a version it does not have', async () => {
    const asset = await twoVersions();
    const refused = await post(`${asset}/versions/1/restore`, viewer.token, {}).expect(403);
    expect(refused.text).toBe('you need edit permission on every access level of the asset');
    await post(`${asset}/versions/1/restore`, outsider.token, {}).expect(404);
    const unknown = await post(`${asset}/versions/9/restore`, t.adminToken, {}).expect(404);
    expect(unknown.text).toBe(`asset ${asset.split('/').pop()} has no version 9`);
    await post(`${asset}/versions/abc/restore`, t.adminToken, {}).expect(404);
    expect(await current(asset)).toBe('two!');
  });

  it('is 409 while another user has the asset checked out, and changes nothing', async () => {
    const asset = await twoVersions();
    await put(`${asset}/checkout`, t.adminToken, { userId: viewer.id }).expect(200);
    const conflict = await post(`${asset}/versions/1/restore`, editor.token, {}).expect(409);
    expect(conflict.text).toBe(CHECKED_OUT_TO_ANOTHER_USER);
    expect((await get(`${asset}/versions`, t.adminToken).expect(200)).body).toHaveLength(2);
    expect(await current(asset)).toBe('two!');
  });
});
