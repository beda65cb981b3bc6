import { AssetVersionRepresentation } from '@dam/asset-content';
import { bearerRequests, itRefusesRequestsWithoutAToken } from './helpers/bearer-requests';
import { contentRequests, defaultLevelWith, fetchSigned } from './helpers/content-fixtures';
import { Grants } from './helpers/grant-fixtures';
import { TestApp, TestUser } from './helpers/test-app';

type Version = AssetVersionRepresentation;

/** Upload-As-New-Version and GET /rest/assets/{id}/versions (docs/api-decisions.md). */
describe('asset versions', () => {
  let t: TestApp;
  let level: number;
  let viewer: TestUser;
  let approvalEditor: TestUser;
  const { get, post } = bearerRequests(() => t);
  const { newAsset, upload } = contentRequests(() => t);

  beforeAll(async () => {
    t = await TestApp.start();
    ({
      level,
      users: [viewer, approvalEditor],
    } = await defaultLevelWith(t, new Grants(t), [['view'], ['view', 'download', 'editWithApproval']]));
  });
  afterAll(() => t?.close());

  async function bodyOf(url: string, token: string): Promise<string> {
    const redirect = await get(new URL(url).pathname, token).redirects(0).expect(303);
    return (await fetchSigned(redirect.headers.location as string)).body.toString();
  }

  it('keeps earlier files as versions when uploading as a new version, and replaces the current one otherwise', async () => {
    const asset = await newAsset(level);
    await upload(asset, t.adminToken, Buffer.from('one'), 'v1.txt').expect(200);
    await upload(asset, t.adminToken, Buffer.from('two!'), 'v2.txt')
      .set('Upload-As-New-Version', 'true')
      .expect(200);
    let versions = (await get(`${asset}/versions`, t.adminToken).expect(200)).body as Version[];
    expect(
      versions.map(({ version, current, originalFilename, fileSize }) => ({
        version,
        current,
        originalFilename,
        fileSize,
      })),
    ).toEqual([
      { version: 1, current: false, originalFilename: 'v1.txt', fileSize: 3 },
      { version: 2, current: true, originalFilename: 'v2.txt', fileSize: 4 },
    ]);
    expect(await bodyOf(versions[0].contentUrl, t.adminToken)).toBe('one');
    expect(await bodyOf(versions[1].contentUrl, t.adminToken)).toBe('two!');
    expect(new Date(versions[0].dateAdded).getTime()).not.toBeNaN();

    // Without the header the current version's file is replaced; earlier versions stay.
    await upload(asset, t.adminToken, Buffer.from('two, fixed'), 'v2b.txt').expect(200);
    versions = (await get(`${asset}/versions`, t.adminToken).expect(200)).body as Version[];
    expect(versions.map((entry) => [entry.version, entry.originalFilename])).toEqual([
      [1, 'v1.txt'],
      [2, 'v2b.txt'],
    ]);
    expect(await bodyOf(`${t.baseUrl}${asset}/content`, t.adminToken)).toBe('two, fixed');
    await get(`${asset}/versions/3/content`, t.adminToken).expect(404);
  });

  it('lists an empty history for an asset without content', async () => {
    const asset = await newAsset(level);
    await get(`${asset}/versions`, t.adminToken).expect(200, []);
  });

  it('makes a pending new version a version only once approved', async () => {
    const asset = await newAsset(level);
    await upload(asset, t.adminToken, Buffer.from('first'), 'first.txt').expect(200);
    await upload(asset, approvalEditor.token, Buffer.from('second'), 'second.txt')
      .set('Upload-As-New-Version', 'true')
      .expect(200);
    expect((await get(`${asset}/versions`, t.adminToken).expect(200)).body).toHaveLength(1);
    await post(`${asset}/approve`, t.adminToken, {}).expect((response) =>
      expect(response.status).toBeLessThan(300),
    );
    const versions = (await get(`${asset}/versions`, t.adminToken).expect(200)).body as Version[];
    expect(versions.map((entry) => [entry.version, entry.originalFilename, entry.current])).toEqual([
      [1, 'first.txt', false],
      [2, 'second.txt', true],
    ]);
  });

  it("needs download permission for a version's content (403) and visibility for the list (404)", async () => {
    const asset = await newAsset(level);
    await upload(asset, t.adminToken, Buffer.from('x'), 'x.txt').expect(200);
    const versions = (await get(`${asset}/versions`, viewer.token).expect(200)).body as Version[];
    await get(new URL(versions[0].contentUrl).pathname, viewer.token).expect(403);
    const outsider = await t.createUser();
    await get(`${asset}/versions`, outsider.token).expect(404);
  });

  itRefusesRequestsWithoutAToken(
    () => t,
    [
      ['GET', '/rest/assets/1/versions'],
      ['GET', '/rest/assets/1/versions/1/content'],
    ],
  );
});
