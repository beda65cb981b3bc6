import { createHash, randomBytes } from 'node:crypto';
import * as http from 'node:http';
import * as tus from 'tus-js-client';
import { DataSource } from 'typeorm';
import { bearerRequests, pathOf } from './helpers/bearer-requests';
import { contentRequests, fetchSigned, png, sha256, waitForRedirect } from './helpers/content-fixtures';
import { createTestDatabase, MATRIX, TestDatabase } from './helpers/databases';
import { Grants } from './helpers/grant-fixtures';
import type { TestObjectStore } from './helpers/object-store';
import { startMultipartObjectStore } from './helpers/s3rver-multipart';
import { storedKeys } from './helpers/stored-keys';
import { TestApp, TestUser } from './helpers/test-app';
import {
  assetIdOf as idOf,
  base64 as b64,
  reprDigestOf as digestOf,
  tusRequests,
} from './helpers/tus-requests';

jest.setTimeout(120_000);

const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * tus 1.0 at /rest/tus/ (issue 17): @tus/file-store on SQLite+fs, @tus/s3-store on MariaDB+S3 (s3rver with
 * the multipart listing @tus/s3-store needs, or MinIO). Two app instances share the database and store.
 */
describe('tus uploads', () => {
  let database: TestDatabase;
  let store: TestObjectStore | undefined;
  let a: TestApp;
  let b: TestApp;
  let level: number;
  let editor: TestUser;
  let viewer: TestUser;
  let other: TestUser;
  const api = bearerRequests(() => a);
  const { newAsset } = contentRequests(() => a);

  beforeAll(async () => {
    database = await createTestDatabase(MATRIX, { migrated: true });
    store = MATRIX === 'mysql' ? await startMultipartObjectStore() : undefined;
    a = await TestApp.start({ database, objectStore: store });
    const grants = new Grants(a);
    level = await grants.topLevel('Default');
    [editor, viewer, other] = [await a.createUser(), await a.createUser(), await a.createUser()];
    await grants.give(editor.id, [level], ['view', 'download', 'edit']);
    await grants.give(other.id, [level], ['view', 'download', 'edit']);
    await grants.give(viewer.id, [level], ['view', 'download']);
    // Booted last: it sets its own secret on the shared OAuth client, which `a` used to log users in.
    b = await TestApp.start({ database, objectStore: store });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await store?.stop();
    await database?.drop();
  });

  const { create, patch, head } = tusRequests;

  async function downloaded(asset: string, token = editor.token) {
    const redirect = await api.get(`${asset}/content`, token).redirects(0).expect(303);
    return fetchSigned(redirect.headers.location as string);
  }

  async function contentSha256(asset: string): Promise<string> {
    return (await downloaded(asset)).sha256;
  }

  /** The stored objects of one upload (`tus/{id}` and its info, part or json files). */
  function keysOf(upload: string): Promise<string[]> {
    return storedKeys(a, `tus/${upload.split('/').pop()}`);
  }

  it('OPTIONS names tus 1.0, its extensions and checksum algorithms; every request needs a token', async () => {
    const options = await a.http.options('/rest/tus').auth(editor.token, { type: 'bearer' }).expect(204);
    expect(options.headers['tus-version']).toBe('1.0.0');
    expect(options.headers['tus-extension']?.split(',')).toEqual(
      expect.arrayContaining(['creation', 'creation-with-upload', 'termination', 'expiration', 'checksum']),
    );
    expect(options.headers['tus-checksum-algorithm']?.split(',')).toContain('sha1');
    await a.http.options('/rest/tus').expect(401);
    await a.http.post('/rest/tus').set('Tus-Resumable', '1.0.0').set('Upload-Length', '1').expect(401);
    const asset = await newAsset(level);
    const created = await create(a, editor.token, 10, { assetId: String(idOf(asset)) }).expect(201);
    const upload = pathOf(created.headers.location as string);
    await a.http.head(upload).set('Tus-Resumable', '1.0.0').expect(401);
    await a.http.patch(upload).set('Tus-Resumable', '1.0.0').expect(401);
    await a.http.delete(upload).set('Tus-Resumable', '1.0.0').expect(401);
    await a.http
      .head(upload)
      .auth('not-a-token', { type: 'bearer' })
      .set('Tus-Resumable', '1.0.0')
      .expect(401);
  });

  it('a tus-js-client upload interrupted, resumed on the URL it had, completes as the asset content', async () => {
    const asset = await newAsset(level);
    const data = randomBytes(3 * MiB + 12_345);
    const chunkSize = 512 * KiB;
    const common = {
      headers: { Authorization: `Bearer ${editor.token}` },
      chunkSize,
      retryDelays: null,
      storeFingerprintForResuming: false,
    };
    // First run: stopped after two chunks, as a client that loses its connection.
    let url = '';
    await new Promise<void>((resolve, reject) => {
      let chunks = 0;
      const upload = new tus.Upload(data, {
        ...common,
        endpoint: `${a.baseUrl}/rest/tus`,
        metadata: { assetId: String(idOf(asset)), filename: 'big.bin' },
        onChunkComplete: () => {
          chunks += 1;
          if (chunks === 2) {
            url = upload.url ?? '';
            void upload.abort().then(resolve, reject);
          }
        },
        onError: reject,
        onSuccess: () => reject(new Error('finished before it was interrupted')),
      });
      upload.start();
    });
    const offset = Number((await head(a, editor.token, pathOf(url)).expect(200)).headers['upload-offset']);
    expect(offset).toBe(2 * chunkSize);
    await api.get(`${asset}/content`, editor.token).redirects(0).expect(404);

    // Second run on the same URL: it asks for the offset and sends only what is missing.
    const patchOffsets: number[] = [];
    const reprDigest = await new Promise<string | undefined>((resolve, reject) => {
      const upload = new tus.Upload(data, {
        ...common,
        uploadUrl: url,
        onBeforeRequest: (request) => {
          if (request.getMethod() === 'PATCH') patchOffsets.push(Number(request.getHeader('Upload-Offset')));
        },
        onError: reject,
        onSuccess: (payload) => resolve(payload.lastResponse.getHeader('Repr-Digest')),
      });
      upload.start();
    });
    expect(patchOffsets[0]).toBe(offset);
    expect(Math.min(...patchOffsets)).toBe(offset);
    expect(patchOffsets).toHaveLength(Math.ceil((data.length - offset) / chunkSize));
    expect(reprDigest).toBe(digestOf(data));
    const content = await downloaded(asset);
    expect(content.sha256).toBe(sha256(data));
    expect(content.headers.get('content-disposition')).toContain('big.bin');
    // Its bytes went into the asset's content: nothing is left under tus/, and the URL is gone.
    expect(await keysOf(url)).toEqual([]);
    await head(a, editor.token, pathOf(url)).expect(404);
  });

  it('a finished upload is the content exactly as a PUT: a new version on request, renditions', async () => {
    const asset = await newAsset(level);
    const first = randomBytes(1000);
    await contentRequests(() => a)
      .upload(asset, editor.token, first, 'first.bin')
      .expect(200);
    const image = await png(640, 480);
    const created = await create(a, editor.token, image.length, {
      assetId: String(idOf(asset)),
      filename: 'photo.png',
      asNewVersion: 'true',
    })
      .set('Content-Type', 'application/offset+octet-stream')
      .send(image)
      .expect(201);
    expect(created.headers['upload-offset']).toBe(String(image.length));
    expect(created.headers['repr-digest']).toBe(digestOf(image));
    const content = await downloaded(asset);
    expect(content.sha256).toBe(sha256(image));
    expect(content.headers.get('content-disposition')).toContain('photo.png');
    const versions = (await api.get(`${asset}/versions`, editor.token).expect(200)).body as unknown[];
    expect(versions.length).toBe(2);
    const represented = (await api.get(asset, editor.token).expect(200)).body as {
      type: string;
      thumbnailUrl: string;
    };
    expect(represented.type).toBe('Image');
    const rendition = await waitForRedirect(a, pathOf(represented.thumbnailUrl), editor.token);
    expect(rendition.status).toBe(303);
  });

  it('the answer that completes an upload names other assets with the same content (X-Duplicate-Of)', async () => {
    const bytes = randomBytes(2000);
    const original = await newAsset(level);
    await contentRequests(() => a)
      .upload(original, editor.token, bytes)
      .expect(200);
    const asset = await newAsset(level);
    const created = await create(a, editor.token, bytes.length, {
      assetId: String(idOf(asset)),
      filename: 'again.bin',
    })
      .set('Content-Type', 'application/offset+octet-stream')
      .send(bytes)
      .expect(201);
    expect(created.headers['x-duplicate-of']).toBe(a.rest(original.replace(/^\/rest/, '')));
    expect((await api.get(asset, editor.token).expect(200)).body.contentSha256).toBe(sha256(bytes));
  });

  it('creation needs the permission of a content PUT: 400 without assetId, 403, 404, 409 when checked out', async () => {
    const asset = await newAsset(level);
    const assetId = String(idOf(asset));
    const missing = await create(a, editor.token, 10, { filename: 'x.bin' }).expect(400);
    expect(missing.headers['content-type']).toMatch(/^text\/plain/);
    await create(a, editor.token, 10, { assetId: 'abc' }).expect(400);
    const refused = await create(a, viewer.token, 10, { assetId }).expect(403);
    expect(refused.text).toBe('you need edit permission on every access level of the asset');
    await create(a, editor.token, 10, { assetId: '999999' }).expect(404);
    await api.put(`${asset}/checkout`, other.token, {}).expect(200);
    await create(a, editor.token, 10, { assetId }).expect(409);
    await api.put(`${asset}/checkout`, other.token, { userId: 0 }).expect(200);
    await create(a, editor.token, 10, { assetId }).expect(201);
    const rows = await a.app.get(DataSource).query('SELECT created_by_user_id FROM tus_uploads');
    expect(rows.map((row: { created_by_user_id: number }) => Number(row.created_by_user_id))).not.toContain(
      viewer.id,
    );
  });

  it("an upload is its creator's: 404 to another user, however it is asked", async () => {
    const asset = await newAsset(level);
    const created = await create(a, editor.token, 4, { assetId: String(idOf(asset)) }).expect(201);
    const upload = pathOf(created.headers.location as string);
    expect(upload).toMatch(/^\/rest\/tus\/[0-9a-f]{32}$/);
    const hidden = await head(a, other.token, upload).expect(404);
    expect(hidden.headers['upload-offset']).toBeUndefined();
    const refused = await patch(a, other.token, upload, 0, Buffer.from('abcd')).expect(404);
    expect(refused.text).toMatch(/^tus upload [0-9a-f]{32} does not exist$/);
    await tusRequests.delete(a, other.token, upload).expect(404);
    expect((await head(a, editor.token, upload).expect(200)).headers['upload-offset']).toBe('0');
    // Admins may continue anyone's upload.
    await patch(a, a.adminToken, upload, 0, Buffer.from('ab')).expect(204);
    expect((await head(a, editor.token, upload).expect(200)).headers['upload-offset']).toBe('2');
  });

  it('checksum: a PATCH whose Upload-Checksum does not match is 460 and stores nothing', async () => {
    const asset = await newAsset(level);
    const data = randomBytes(200_000);
    const created = await create(a, editor.token, data.length, { assetId: String(idOf(asset)) }).expect(201);
    const upload = pathOf(created.headers.location as string);
    const first = data.subarray(0, 100_000);
    const sha1 = (bytes: Buffer) => `sha1 ${createHash('sha1').update(bytes).digest('base64')}`;
    const corrupted = Buffer.from(first);
    corrupted[500] ^= 0xff;
    const mismatch = await patch(a, editor.token, upload, 0, corrupted).set('Upload-Checksum', sha1(first));
    expect(mismatch.status).toBe(460);
    expect(mismatch.headers['content-type']).toMatch(/^text\/plain/);
    expect((await head(a, editor.token, upload).expect(200)).headers['upload-offset']).toBe('0');
    await patch(a, editor.token, upload, 0, first).set('Upload-Checksum', 'crc99 AAAA').expect(400);
    await patch(a, editor.token, upload, 0, first).set('Upload-Checksum', sha1(first)).expect(204);
    const rest = data.subarray(100_000);
    const sha256Checksum = `sha256 ${createHash('sha256').update(rest).digest('base64')}`;
    await patch(a, editor.token, upload, 100_000, rest).set('Upload-Checksum', sha256Checksum).expect(204);
    expect(await contentSha256(asset)).toBe(sha256(data));
  });

  it('termination removes the upload and its bytes; a wrong offset is 409', async () => {
    const asset = await newAsset(level);
    const created = await create(a, editor.token, 100, { assetId: String(idOf(asset)) }).expect(201);
    const upload = pathOf(created.headers.location as string);
    expect(created.headers['upload-expires']).toBeDefined();
    await patch(a, editor.token, upload, 0, randomBytes(40)).expect(204);
    await patch(a, editor.token, upload, 10, randomBytes(40)).expect(409);
    expect((await keysOf(upload)).length).toBeGreaterThan(0);
    await tusRequests.delete(a, editor.token, upload).expect(204);
    await head(a, editor.token, upload).expect(404);
    expect(await keysOf(upload)).toEqual([]);
    const rows = await a.app
      .get(DataSource)
      .query('SELECT id FROM tus_uploads WHERE id = ?', [upload.split('/').pop()]);
    expect(rows).toEqual([]);
  });

  it('two instances serve alternate PATCH requests of one upload, whichever created it', async () => {
    const asset = await newAsset(level);
    const data = randomBytes(6 * MiB + 777);
    const created = await create(b, editor.token, data.length, { assetId: String(idOf(asset)) }).expect(201);
    const upload = pathOf(created.headers.location as string);
    const step = 1536 * KiB;
    for (let offset = 0, turn = 0; offset < data.length; offset += step, turn++) {
      const app = turn % 2 === 0 ? a : b;
      const bytes = data.subarray(offset, Math.min(offset + step, data.length));
      const answer = await patch(app, editor.token, upload, offset, bytes).expect(204);
      expect(answer.headers['upload-offset']).toBe(String(offset + bytes.length));
      if (offset + bytes.length < data.length) {
        const other = app === a ? b : a;
        expect((await head(other, editor.token, upload).expect(200)).headers['upload-offset']).toBe(
          String(offset + bytes.length),
        );
      }
    }
    expect(await contentSha256(asset)).toBe(sha256(data));
  });

  it("a PATCH on one instance waits for the other's lock, which is released when asked", async () => {
    const asset = await newAsset(level);
    const data = randomBytes(256 * KiB);
    const created = await create(a, editor.token, data.length, { assetId: String(idOf(asset)) }).expect(201);
    const upload = pathOf(created.headers.location as string);
    // A PATCH to `a` that sends part of its body, then stalls (a client whose network went away).
    const stalled = http.request(`${a.baseUrl}${upload}`, {
      method: 'PATCH',
      headers: {
        Authorization: `Bearer ${editor.token}`,
        'Tus-Resumable': '1.0.0',
        'Upload-Offset': '0',
        'Content-Type': 'application/offset+octet-stream',
        'Content-Length': String(data.length),
      },
    });
    const stalledAnswer = new Promise<number>((resolve) => {
      stalled.on('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      stalled.on('error', () => resolve(0));
    });
    stalled.write(data.subarray(0, 64 * KiB));
    const rows = async () =>
      (await a.app
        .get(DataSource)
        .query('SELECT holder FROM tus_locks WHERE upload_id = ?', [upload.split('/').pop()])) as unknown[];
    for (let tries = 0; (await rows()).length === 0; tries++) {
      if (tries > 200) throw new Error('the stalled PATCH never took the lock');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The client comes back through `b`: its HEAD waits for the lock, `a` gives it up.
    const resumed = await head(b, editor.token, upload).expect(200);
    const offset = Number(resumed.headers['upload-offset']);
    expect(offset).toBeGreaterThanOrEqual(0);
    expect(offset).toBeLessThanOrEqual(64 * KiB);
    stalled.destroy();
    await stalledAnswer;
    const rest = data.subarray(
      Number((await head(b, editor.token, upload).expect(200)).headers['upload-offset']),
    );
    await patch(b, editor.token, upload, data.length - rest.length, rest).expect(204);
    expect(await contentSha256(asset)).toBe(sha256(data));
    expect(await rows()).toEqual([]);
  });

  it('fuzzed-shape requests never answer 5xx: defer-length, concatenation, bad offsets and metadata', async () => {
    const asset = await newAsset(level);
    const assetId = String(idOf(asset));
    const deferred = await a.http
      .post('/rest/tus')
      .auth(editor.token, { type: 'bearer' })
      .set('Tus-Resumable', '1.0.0')
      .set('Upload-Defer-Length', '1')
      .set('Upload-Metadata', `assetId ${b64(assetId)}`);
    expect(deferred.status).toBe(400);
    const concatenated = await create(a, editor.token, 10, { assetId }).set('Upload-Concat', 'partial');
    expect(concatenated.status).toBe(400);
    await a.http
      .post('/rest/tus')
      .auth(editor.token, { type: 'bearer' })
      .set('Upload-Length', '10')
      .set('Upload-Metadata', `assetId ${b64(assetId)}`)
      .expect(412);
    await create(a, editor.token, 10, { assetId }).set('Upload-Metadata', 'assetId !!!,x').expect(400);
    const created = await create(a, editor.token, 10, { assetId }).expect(201);
    const upload = pathOf(created.headers.location as string);
    const tooMuch = await patch(a, editor.token, upload, 0, randomBytes(20));
    expect(tooMuch.status).toBe(413);
    expect(tooMuch.text).not.toMatch(/\n/);
    await patch(a, editor.token, upload, -1, randomBytes(2)).expect((reply) => {
      expect(reply.status).toBeGreaterThanOrEqual(400);
      expect(reply.status).toBeLessThan(500);
    });
    await head(a, editor.token, '/rest/tus/not-an-id').expect(404);
    await patch(a, editor.token, '/rest/tus/0123456789abcdef0123456789abcdef', 0, Buffer.from('x')).expect(
      404,
    );
  });
});
