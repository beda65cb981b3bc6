import { ObjectDeletions } from '@dam/storage';
import { createHash, randomBytes } from 'node:crypto';
import { bearerRequests, pathOf } from './helpers/bearer-requests';
import { binaryBody, contentRequests, fetchSigned, sha256 } from './helpers/content-fixtures';
import { Grants } from './helpers/grant-fixtures';
import { storedKeys } from './helpers/stored-keys';
import { TestApp, TestUser } from './helpers/test-app';

const digest = (algorithm: 'sha256' | 'sha512', bytes: Buffer) =>
  `${algorithm === 'sha256' ? 'sha-256' : 'sha-512'}=:${createHash(algorithm).update(bytes).digest('base64')}:`;
const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('base64');

/**
 * Issue 17: which chunks arrived (GET .../chunks), per-chunk digests (Content-Digest, Content-MD5) and the
 * whole content's Repr-Digest on content PUTs.
 */
describe('upload integrity: chunk list, Content-Digest, Repr-Digest', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  let level: number;
  const api = bearerRequests(() => t);
  const { newAsset, upload } = contentRequests(() => t);

  beforeAll(async () => {
    t = await TestApp.start();
    const grants = new Grants(t);
    level = await grants.topLevel('Default');
    [owner, stranger] = [await t.createUser(), await t.createUser()];
    await grants.give(owner.id, [level], ['view', 'download', 'edit']);
  });
  afterAll(async () => {
    await t?.app.get(ObjectDeletions).settled();
    await t?.close();
  });

  async function newTempFile(token = owner.token): Promise<string> {
    return pathOf(
      (await api.post('/rest/temp-chunked-files', token, {}).expect(201)).headers.location as string,
    );
  }

  function putChunk(file: string, index: number, bytes: Buffer, headers: Record<string, string> = {}) {
    let request = t.http
      .put(`${file}/${index}`)
      .auth(owner.token, { type: 'bearer' })
      .set('Content-Type', 'application/octet-stream');
    for (const [name, value] of Object.entries(headers)) request = request.set(name, value);
    return request.send(bytes);
  }

  async function content(file: string): Promise<Buffer> {
    const response = await api.get(file, owner.token).buffer(true).parse(binaryBody).expect(200);
    return response.body as Buffer;
  }

  it('lists the chunks present in index order with their size and SHA-256, to the creator and admins only', async () => {
    const file = await newTempFile();
    const chunks = [randomBytes(3000), randomBytes(10), randomBytes(777)];
    for (const index of [2, 0, 1]) await putChunk(file, index, chunks[index]).expect(200);
    const listed = await api.get(`${file}/chunks`, owner.token).expect(200);
    expect(listed.body).toEqual(
      chunks.map((bytes, index) => ({ index, size: bytes.length, sha256: sha256(bytes) })),
    );
    expect((await api.get(`${file}/chunks`, t.adminToken).expect(200)).body).toEqual(listed.body);
    const hidden = await api.get(`${file}/chunks`, stranger.token).expect(404);
    expect(hidden.text).toBe(`temp chunked file ${file.split('/').pop()} does not exist`);
    await t.http.get(`${file}/chunks`).expect(401);
    expect((await api.get(`${await newTempFile()}/chunks`, owner.token).expect(200)).body).toEqual([]);
    const xml = await api.get(`${file}/chunks`, owner.token).set('Accept', 'application/xml').expect(200);
    expect(xml.text).toContain(`<chunk><index>0</index><size>3000</size><sha256>${sha256(chunks[0])}`);
  });

  it('a chunk that does not match its Content-Digest or Content-MD5 is refused and the earlier one kept', async () => {
    const file = await newTempFile();
    const good = randomBytes(50_000);
    await putChunk(file, 0, good, { 'Content-Digest': digest('sha256', good) }).expect(200, {
      index: 0,
      size: good.length,
    });
    const corrupted = Buffer.from(good);
    corrupted[12_345] ^= 0x01;
    const refused = await putChunk(file, 0, corrupted, { 'Content-Digest': digest('sha256', good) }).expect(
      400,
    );
    expect(refused.headers['content-type']).toMatch(/^text\/plain/);
    expect(refused.text).toBe('chunk 0 does not match its Content-Digest (sha-256)');
    await putChunk(file, 0, corrupted, { 'Content-MD5': md5(good) }).expect(400);
    await putChunk(file, 0, corrupted, { 'Content-Digest': digest('sha512', good) }).expect(400);
    // Where both are sent, both must match.
    await putChunk(file, 0, corrupted, {
      'Content-Digest': digest('sha256', corrupted),
      'Content-MD5': md5(good),
    }).expect(400);
    expect((await api.get(`${file}/chunks`, owner.token).expect(200)).body).toEqual([
      { index: 0, size: good.length, sha256: sha256(good) },
    ]);
    expect((await content(file)).equals(good)).toBe(true);
    // The refused bytes left no object behind.
    expect(await storedKeys(t, `temp/${file.split('/').pop()}/`)).toHaveLength(1);

    const next = randomBytes(1000);
    await putChunk(file, 1, next, { 'Content-MD5': md5(next) }).expect(200);
    await putChunk(file, 2, next, { 'Content-Digest': `${digest('sha512', next)}, md5=:AAAA:` }).expect(200);
    expect(((await api.get(`${file}/chunks`, owner.token).expect(200)).body as unknown[]).length).toBe(3);
  });

  it('a malformed or unusable digest header is a 400 before anything is stored', async () => {
    const file = await newTempFile();
    const bytes = randomBytes(100);
    for (const header of ['sha-256=abc', 'sha-256=:AAAA:', 'md5=:' + md5(bytes) + ':', 'sha-256=:%%%:']) {
      const response = await putChunk(file, 0, bytes, { 'Content-Digest': header }).expect(400);
      expect(response.text).toMatch(/^the Content-Digest header (must look like|carries no)/);
    }
    await putChunk(file, 0, bytes, { 'Content-MD5': 'not-base64' }).expect(400);
    expect((await api.get(`${file}/chunks`, owner.token).expect(200)).body).toEqual([]);
  });

  it('a content PUT whose Repr-Digest does not match changes nothing; the answer carries the stored one', async () => {
    const asset = await newAsset(level);
    const first = randomBytes(20_000);
    const answer = await upload(asset, owner.token, first, 'first.bin')
      .set('Repr-Digest', digest('sha256', first))
      .expect(200);
    expect(answer.headers['repr-digest']).toBe(digest('sha256', first));
    const plain = await upload(asset, owner.token, first, 'again.bin').expect(200);
    expect(plain.headers['repr-digest']).toBe(digest('sha256', first));
    const before = {
      versions: (await api.get(`${asset}/versions`, owner.token).expect(200)).body,
      asset: (await api.get(asset, owner.token).expect(200)).body,
      keys: await storedKeys(t, `assets/${asset.split('/').pop()}/`),
    };

    const other = randomBytes(20_000);
    const refused = await upload(asset, owner.token, other, 'other.bin')
      .set('Upload-As-New-Version', 'true')
      .set('Repr-Digest', digest('sha256', first))
      .expect(400);
    expect(refused.text).toBe('the content does not match its Repr-Digest (sha-256)');
    await upload(asset, owner.token, other, 'other.bin').set('Repr-Digest', 'sha-512=:AAAA:').expect(400);

    // From a temp file too.
    const file = await newTempFile();
    await putChunk(file, 0, other).expect(200);
    await t.http
      .put(`${asset}/content`)
      .auth(owner.token, { type: 'bearer' })
      .set('Content-Type', 'application/octet-stream')
      .set('Content-Disposition', 'attachment; filename="chunked.bin"')
      .set('X-Copy-Temp-Chunked-File', `${t.baseUrl}${file}`)
      .set('Repr-Digest', digest('sha256', first))
      .expect(400);

    expect((await api.get(`${asset}/versions`, owner.token).expect(200)).body).toEqual(before.versions);
    expect((await api.get(asset, owner.token).expect(200)).body).toEqual(before.asset);
    expect(await storedKeys(t, `assets/${asset.split('/').pop()}/`)).toEqual(before.keys);
    const redirect = await api.get(`${asset}/content`, owner.token).redirects(0).expect(303);
    expect((await fetchSigned(redirect.headers.location as string)).sha256).toBe(sha256(first));

    const copied = await t.http
      .put(`${asset}/content`)
      .auth(owner.token, { type: 'bearer' })
      .set('Content-Type', 'application/octet-stream')
      .set('Content-Disposition', 'attachment; filename="chunked.bin"')
      .set('X-Copy-Temp-Chunked-File', `${t.baseUrl}${file}`)
      .set('Repr-Digest', digest('sha256', other))
      .expect(200);
    expect(copied.headers['repr-digest']).toBe(digest('sha256', other));
  });
});
