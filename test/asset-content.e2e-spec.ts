import { CHECKED_OUT_TO_ANOTHER_USER } from '@dam/checkout';
import { ObjectStorage } from '@dam/storage';
import * as http from 'node:http';
import { bearerRequests, itRefusesRequestsWithoutAToken } from './helpers/bearer-requests';
import { contentRequests, defaultLevelWith, fetchSigned, png, sha256 } from './helpers/content-fixtures';
import { Grants } from './helpers/grant-fixtures';
import { TestApp, TestUser } from './helpers/test-app';

/** Spec 4.5 items 5-7: content upload and download through signed URLs. */
describe('asset content', () => {
  let t: TestApp;
  let level: number;
  let viewer: TestUser;
  let downloader: TestUser;
  let editor: TestUser;
  let approvalEditor: TestUser;
  const { get, put, post } = bearerRequests(() => t);
  const { newAsset, upload } = contentRequests(() => t);

  beforeAll(async () => {
    t = await TestApp.start();
    ({
      level,
      users: [viewer, downloader, editor, approvalEditor],
    } = await defaultLevelWith(t, new Grants(t), [
      ['view'],
      ['view', 'download'],
      ['view', 'download', 'edit'],
      ['view', 'download', 'editWithApproval'],
    ]));
  });
  afterAll(() => t?.close());

  const attribute = (body: { attributes: Array<{ name: string; value: string }> }, name: string) =>
    body.attributes.find((candidate) => candidate.name === name)?.value;

  it('round-trips the bytes exactly through the 303 signed URL, with the original file name', async () => {
    const asset = await newAsset(level);
    const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 31 + 7) % 256));
    const answer = await upload(asset, t.adminToken, bytes, 'report 2024.bin').expect(200);
    expect(answer.text).toBe('');

    const redirect = await get(`${asset}/content`, downloader.token).redirects(0).expect(303);
    const fetched = await fetchSigned(redirect.headers.location as string);
    expect(fetched.status).toBe(200);
    expect(fetched.sha256).toBe(sha256(bytes));
    expect(fetched.headers.get('content-disposition')).toContain('report 2024.bin');

    const viaUrl = await get(`${asset}/content/url`, downloader.token).expect(200);
    expect(viaUrl.body.url).toBe(viaUrl.headers.location);
    expect((await fetchSigned(viaUrl.body.url as string)).sha256).toBe(sha256(bytes));

    const represented = await get(asset, t.adminToken).expect(200);
    expect(attribute(represented.body, 'Original filename')).toBe('report 2024.bin');
    expect(attribute(represented.body, 'File size')).toBe('300000');
    expect(attribute(represented.body, 'Date last modified')).not.toBe('');
    expect(represented.body.type).toBe('File');
  });

  it('serves a file name with % through the signed URL as it was uploaded, on every store', async () => {
    const asset = await newAsset(level);
    const bytes = Buffer.from('a red square, 100%');
    await upload(asset, t.adminToken, bytes, '100% red.jpg').expect(200);
    const redirect = await get(`${asset}/content`, downloader.token).redirects(0).expect(303);
    const fetched = await fetchSigned(redirect.headers.location as string);
    expect([fetched.status, fetched.sha256]).toEqual([200, sha256(bytes)]);
    // `%` not before two hex digits is safe in filename= (RFC 6266 appendix D): no filename* needed.
    expect(fetched.headers.get('content-disposition')).toMatch(
      /^(inline|attachment); filename="100% red\.jpg"$/,
    );
  });

  it('recognises a PNG as an Image and replaces the previous content', async () => {
    const asset = await newAsset(level);
    await upload(asset, editor.token, Buffer.from('first'), 'a.txt').expect(200);
    const image = await png(20, 10);
    await upload(asset, editor.token, image, 'no-extension').expect(200);
    const represented = await get(asset, t.adminToken).expect(200);
    expect(represented.body.type).toBe('Image');
    expect(attribute(represented.body, 'Original filename')).toBe('no-extension');
    const redirect = await get(`${asset}/content`, t.adminToken).redirects(0).expect(303);
    expect((await fetchSigned(redirect.headers.location as string)).sha256).toBe(sha256(image));
    const versions = await get(`${asset}/versions`, t.adminToken).expect(200);
    expect(versions.body).toHaveLength(1);
  });

  it('refuses an upload without a file name (400) or of another type (415)', async () => {
    const asset = await newAsset(level);
    const noName = await t.http
      .put(`${asset}/content`)
      .auth(t.adminToken, { type: 'bearer' })
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.from('x'));
    expect(noName.status).toBe(400);
    expect(noName.type).toBe('text/plain');
    const wrongType = await t.http
      .put(`${asset}/content`)
      .auth(t.adminToken, { type: 'bearer' })
      .set('Content-Type', 'text/plain')
      .set('Content-Disposition', 'attachment; filename="a.txt"')
      .send('x');
    expect(wrongType.status).toBe(415);
    await upload(asset, t.adminToken, Buffer.from('x'), 'a.txt')
      .set('Upload-As-New-Version', 'maybe')
      .expect(400);
    await get(`${asset}/content`, t.adminToken).expect(404);
  });

  it('answers 400 for the content of an archived asset', async () => {
    const asset = await newAsset(level);
    await upload(asset, t.adminToken, Buffer.from('archived bytes')).expect(200);
    const current = await get(asset, t.adminToken).expect(200);
    await put(asset, t.adminToken, { ...current.body, archived: true }).expect(200);
    const refused = await get(`${asset}/content`, t.adminToken).expect(400);
    expect(refused.type).toBe('text/plain');
    await get(`${asset}/content/url`, t.adminToken).expect(400);
  });

  it('needs download permission to read and edit permission to upload (403), and hides what is not visible (404)', async () => {
    const asset = await newAsset(level);
    await upload(asset, t.adminToken, Buffer.from('secret')).expect(200);
    await get(`${asset}/content`, viewer.token).expect(403);
    await get(`${asset}/content/url`, viewer.token).expect(403);
    await upload(asset, downloader.token, Buffer.from('mine')).expect(403);
    await get(`${asset}/content-save-status`, viewer.token).expect(403);
    const outsider = await t.createUser();
    await get(`${asset}/content`, outsider.token).expect(404);
    await upload(asset, outsider.token, Buffer.from('mine')).expect(404);
    await get(`${asset}/content?userId=${viewer.id}`, t.adminToken).expect(403);
    await upload(`${asset}`, t.adminToken, Buffer.from('as viewer')).query({ userId: viewer.id }).expect(403);
  });

  it('answers 409 to an upload while the asset is checked out to someone else', async () => {
    const asset = await newAsset(level);
    await upload(asset, t.adminToken, Buffer.from('original')).expect(200);
    await put(`${asset}/checkout`, t.adminToken, {}).expect(200);
    const refused = await upload(asset, editor.token, Buffer.from('replacement'));
    expect(refused.status).toBe(409);
    expect(refused.text).toBe(CHECKED_OUT_TO_ANOTHER_USER);
    const redirect = await get(`${asset}/content`, t.adminToken).redirects(0).expect(303);
    expect((await fetchSigned(redirect.headers.location as string)).body.toString()).toBe('original');
  });

  it('keeps a file uploaded with edit-with-approval pending until the asset is approved', async () => {
    const asset = await newAsset(level);
    await upload(asset, t.adminToken, Buffer.from('approved content'), 'old.txt').expect(200);
    await upload(asset, approvalEditor.token, Buffer.from('proposed content'), 'new.txt').expect(200);
    const before = await get(`${asset}/content`, downloader.token).redirects(0).expect(303);
    expect((await fetchSigned(before.headers.location as string)).body.toString()).toBe('approved content');
    const pending = (await get(asset, t.adminToken)).body;
    expect(attribute(pending, 'Original filename')).toBe('old.txt');
    expect(pending.approved).toBe(false);
    const queue = await get('/rest/pending-edit-approvals', t.adminToken).expect(200);
    expect(
      queue.body.map((entry: { assetInstanceUrl: string }) => new URL(entry.assetInstanceUrl).pathname),
    ).toContain(asset);

    await post(`${asset}/approve`, t.adminToken, {}).expect((response) =>
      expect(response.status).toBeLessThan(300),
    );
    const after = await get(`${asset}/content`, downloader.token).redirects(0).expect(303);
    expect((await fetchSigned(after.headers.location as string)).body.toString()).toBe('proposed content');
    const approved = (await get(asset, t.adminToken)).body;
    expect(attribute(approved, 'Original filename')).toBe('new.txt');
    expect(approved.approved).toBe(true);
    const emptied = await get('/rest/pending-edit-approvals', t.adminToken).expect(200);
    expect(emptied.body).toEqual([]);
  });

  it('leaves the previous content when an upload is aborted mid-stream', async () => {
    const asset = await newAsset(level);
    await upload(asset, t.adminToken, Buffer.from('survivor'), 'survivor.txt').expect(200);
    await new Promise<void>((resolve) => {
      const request = http.request(`${t.baseUrl}${asset}/content`, {
        method: 'PUT',
        headers: {
          authorization: `Bearer ${t.adminToken}`,
          'content-type': 'application/octet-stream',
          'content-disposition': 'attachment; filename="partial.bin"',
          'content-length': String(10 * 1024 * 1024),
        },
      });
      request.on('error', () => resolve());
      request.write(Buffer.alloc(1024 * 1024, 1), () => setTimeout(() => request.destroy(), 200));
      request.on('close', () => resolve());
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const redirect = await get(`${asset}/content`, t.adminToken).redirects(0).expect(303);
    expect((await fetchSigned(redirect.headers.location as string)).body.toString()).toBe('survivor');
    const represented = await get(asset, t.adminToken).expect(200);
    expect(attribute(represented.body, 'Original filename')).toBe('survivor.txt');
    const versions = await get(`${asset}/versions`, t.adminToken).expect(200);
    expect(versions.body).toHaveLength(1);
    const keys: string[] = [];
    for await (const key of t.app.get(ObjectStorage).list(`assets/${asset.split('/').pop()}/`))
      keys.push(key);
    expect(keys).toHaveLength(1);
  });

  it('has no precursor files: content-save-status is 404', async () => {
    const asset = await newAsset(level);
    const answer = await get(`${asset}/content-save-status`, editor.token).expect(404);
    expect(answer.type).toBe('text/plain');
  });

  itRefusesRequestsWithoutAToken(
    () => t,
    [
      ['GET', '/rest/assets/1/content'],
      ['PUT', '/rest/assets/1/content'],
      ['GET', '/rest/assets/1/content/url'],
      ['GET', '/rest/assets/1/content-save-status'],
    ],
  );
});
