import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { bearerRequests } from './helpers/bearer-requests';
import { contentRequests } from './helpers/content-fixtures';
import { Grants } from './helpers/grant-fixtures';
import { pseudoRandomBlocks, pseudoRandomStream, streamRequest } from './helpers/raw-http';
import { TestApp } from './helpers/test-app';

jest.setTimeout(240_000);

const MiB = 1024 * 1024;

/** X-Copy-Temp-Chunked-File, and a large direct upload, byte-exact by SHA-256 through the signed URL. */
describe('asset content from temp chunked files and large bodies', () => {
  let t: TestApp;
  let level: number;
  const { get, post } = bearerRequests(() => t);
  const { newAsset } = contentRequests(() => t);

  beforeAll(async () => {
    t = await TestApp.start();
    level = await new Grants(t).topLevel('Default');
  });
  afterAll(() => t?.close());

  function expectedHash(seed: string, sizes: number[]): string {
    const hash = createHash('sha256');
    sizes.forEach((size, index) => {
      for (const block of pseudoRandomBlocks(seed, index, size)) hash.update(block);
    });
    return hash.digest('hex');
  }

  async function downloaded(asset: string) {
    const redirect = await get(`${asset}/content`, t.adminToken).redirects(0).expect(303);
    return streamRequest('GET', redirect.headers.location as string);
  }

  function putContent(asset: string, headers: Record<string, string>, body?: Readable) {
    return streamRequest('PUT', `${t.baseUrl}${asset}/content`, {
      token: t.adminToken,
      body,
      headers: {
        'content-type': 'application/octet-stream',
        'content-disposition': 'attachment; filename="big.bin"',
        ...headers,
      },
    });
  }

  it('copies a temp file of 64+ MB in uneven chunks into the asset, byte-exact, and leaves the temp file', async () => {
    const created = await post('/rest/temp-chunked-files', t.adminToken, {}).expect(201);
    const tempUrl = created.headers.location as string;
    const sizes = [7 * MiB + 13, 20 * MiB - 5, 1 * MiB, 17 * MiB + 3, 19 * MiB + 101];
    const seed = 'chunked-copy';
    for (const [index, size] of sizes.entries()) {
      const reply = await streamRequest('PUT', `${tempUrl}/${index}`, {
        token: t.adminToken,
        body: pseudoRandomStream(seed, index, size),
        headers: { 'content-type': 'application/octet-stream', 'content-length': String(size) },
      });
      expect(reply.status).toBe(200);
    }
    const asset = await newAsset(level);
    const started = Date.now();
    const copied = await putContent(asset, { 'x-copy-temp-chunked-file': tempUrl, 'content-length': '0' });
    expect(copied.status).toBe(200);
    const total = sizes.reduce((sum, size) => sum + size, 0);
    process.stdout.write(`copy of ${(total / MiB).toFixed(1)} MiB from chunks: ${Date.now() - started} ms\n`);

    const read = await downloaded(asset);
    expect(read).toMatchObject({ status: 200, size: total, sha256: expectedHash(seed, sizes) });
    const temp = await streamRequest('GET', tempUrl, { token: t.adminToken });
    expect(temp).toMatchObject({ status: 200, size: total });
    const represented = await get(asset, t.adminToken).expect(200);
    expect(represented.body.attributes).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'File size', value: String(total) })]),
    );
  });

  it("refuses a temp file URL that names nothing, or another user's temp file (400)", async () => {
    const asset = await newAsset(level);
    const bogus = await putContent(asset, {
      'x-copy-temp-chunked-file': `${t.baseUrl}/rest/assets/1`,
      'content-length': '0',
    });
    expect(bogus.status).toBe(400);
    const other = await t.createUser();
    await new Grants(t).give(other.id, [level], ['view', 'edit']);
    const created = await post('/rest/temp-chunked-files', other.token, {}).expect(201);
    const reply = await putContent(asset, {
      'x-copy-temp-chunked-file': created.headers.location as string,
      'content-length': '0',
    });
    expect(reply.status).toBe(400);
  });

  it('streams a 100 MB body straight into storage, byte-exact', async () => {
    const asset = await newAsset(level);
    const size = 100 * MiB;
    const started = Date.now();
    const reply = await putContent(
      asset,
      { 'content-length': String(size) },
      pseudoRandomStream('direct', 0, size),
    );
    const seconds = (Date.now() - started) / 1000;
    expect(reply.status).toBe(200);
    process.stdout.write(`direct upload of 100 MiB: ${(100 / seconds).toFixed(1)} MiB/s\n`);
    const read = await downloaded(asset);
    expect(read).toMatchObject({ status: 200, size, sha256: expectedHash('direct', [size]) });
  });
});
