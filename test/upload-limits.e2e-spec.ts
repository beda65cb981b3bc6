import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { bearerRequests, pathOf } from './helpers/bearer-requests';
import { contentRequests } from './helpers/content-fixtures';
import { MATRIX } from './helpers/databases';
import { Grants } from './helpers/grant-fixtures';
import type { TestObjectStore } from './helpers/object-store';
import { streamRequest } from './helpers/raw-http';
import { startMultipartObjectStore } from './helpers/s3rver-multipart';
import { storedKeys } from './helpers/stored-keys';
import { TestApp } from './helpers/test-app';

jest.setTimeout(60_000);

const MAX = 64 * 1024;
const TOO_LARGE = /^an uploaded file may hold at most 65536 bytes$/;

/**
 * Issue 36, point 7: DAM_MAX_UPLOAD_BYTES bounds a content PUT (announced or streamed), the chunks of a
 * temp file together, and a tus upload (advertised as Tus-Max-Size); past it, 413 and nothing stored.
 */
describe('upload limits', () => {
  let t: TestApp;
  let level: number;
  let store: TestObjectStore | undefined;
  const { get, post } = bearerRequests(() => t);
  const { newAsset, upload } = contentRequests(() => t);

  beforeAll(async () => {
    // On MariaDB, the s3rver with the multipart listing @tus/s3-store needs (as tus-uploads-resumable.e2e-spec.ts).
    store = MATRIX === 'mysql' ? await startMultipartObjectStore() : undefined;
    const env = { DAM_MAX_UPLOAD_BYTES: String(MAX), DAM_MAX_CHUNK_BYTES: '40000' };
    t = await TestApp.start({ env, objectStore: store });
    level = await new Grants(t).topLevel('Default');
  });

  afterAll(async () => {
    await t?.close();
    await store?.stop();
  });

  async function expectNothingStored(asset: string): Promise<void> {
    await get(`${asset}/content`, t.adminToken).expect(404);
    expect((await get(`${asset}/versions`, t.adminToken).expect(200)).body).toEqual([]);
    expect(await storedKeys(t, `assets/${asset.split('/').pop()}/`)).toEqual([]);
  }

  describe('content PUT', () => {
    it('stores a file of exactly the limit', async () => {
      const asset = await newAsset(level);
      await upload(asset, t.adminToken, randomBytes(MAX)).expect(200);
    });

    it('refuses an announced Content-Length past the limit with 413, storing nothing', async () => {
      const asset = await newAsset(level);
      const refused = await upload(asset, t.adminToken, randomBytes(MAX + 1));
      expect(refused.status).toBe(413);
      expect(refused.text).toMatch(TOO_LARGE);
      await expectNothingStored(asset);
    });

    it('cuts off a streamed body without Content-Length once past the limit: 413, no version, no object', async () => {
      const asset = await newAsset(level);
      const blocks = Array.from({ length: 16 }, () => randomBytes(16 * 1024));
      const reply = await streamRequest('PUT', `${t.baseUrl}${asset}/content`, {
        token: t.adminToken,
        body: Readable.from(blocks),
        headers: {
          'Content-Type': 'application/octet-stream',
          'Content-Disposition': 'attachment; filename="big.bin"',
        },
      });
      expect(reply.status).toBe(413);
      expect(reply.text).toMatch(TOO_LARGE);
      await expectNothingStored(asset);
    });
  });

  describe('temp chunked files', () => {
    function putChunk(path: string, index: number, size: number) {
      return t.http
        .put(`${path}/${index}`)
        .auth(t.adminToken, { type: 'bearer' })
        .set('Content-Type', 'application/octet-stream')
        .send(randomBytes(size));
    }

    it('holds the chunks of one file together to the limit, a replaced chunk counted once', async () => {
      const created = await post('/rest/temp-chunked-files', t.adminToken, {}).expect(201);
      const path = pathOf(created.headers.location as string);
      await putChunk(path, 0, 40_000).expect(200);
      await putChunk(path, 0, 40_000).expect(200);
      const refused = await putChunk(path, 1, 40_000);
      expect(refused.status).toBe(413);
      expect(refused.text).toMatch(TOO_LARGE);
      await putChunk(path, 1, MAX - 40_000).expect(200);
      const chunks = await get(`${path}/chunks`, t.adminToken).expect(200);
      expect(chunks.body.map((chunk: { size: number }) => chunk.size)).toEqual([40_000, MAX - 40_000]);
    });
  });

  describe('tus', () => {
    function create(length: string, asset: string) {
      const assetId = Buffer.from(asset.split('/').pop() ?? '').toString('base64');
      return t.http
        .post('/rest/tus')
        .auth(t.adminToken, { type: 'bearer' })
        .set('Tus-Resumable', '1.0.0')
        .set('Upload-Length', length)
        .set('Upload-Metadata', `assetId ${assetId}`);
    }

    it('advertises Tus-Max-Size on OPTIONS', async () => {
      const options = await t.http
        .options('/rest/tus')
        .auth(t.adminToken, { type: 'bearer' })
        .set('Tus-Resumable', '1.0.0');
      expect(options.status).toBe(204);
      expect(options.headers['tus-max-size']).toBe(String(MAX));
    });

    it('refuses an Upload-Length past the limit with 413', async () => {
      const asset = await newAsset(level);
      for (const length of ['1000000000000000', String(MAX + 1)]) {
        const refused = await create(length, asset);
        expect(refused.status).toBe(413);
      }
      await create(String(MAX), asset).expect(201);
    });
  });
});
