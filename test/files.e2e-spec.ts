import { ObjectStorage, UrlSigner } from '@dam/storage';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { startObjectStore, TestObjectStore } from './helpers/object-store';
import { TestApp } from './helpers/test-app';

jest.setTimeout(120_000);

/** Path and query of a signed URL: the tests reach the app on its real port, whatever origin was signed. */
function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

function withParam(url: string, name: string, value: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set(name, value);
  return pathOf(parsed.toString());
}

/** Raw bytes of a response body (supertest would decode text types). */
async function download(
  testApp: TestApp,
  pathAndQuery: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const response = await fetch(`${testApp.baseUrl}${pathAndQuery}`, { headers });
  return {
    status: response.status,
    headers: response.headers,
    body: Buffer.from(await response.arrayBuffer()),
  };
}

describe('GET /files/{key}: signed downloads from the fs store', () => {
  let testApp: TestApp;
  let storage: ObjectStorage;
  let signer: UrlSigner;
  const data = randomBytes(10_000);
  let url: string;

  beforeAll(async () => {
    testApp = await TestApp.start({ env: { STORAGE_DRIVER: 'fs' } });
    storage = testApp.app.get(ObjectStorage);
    signer = testApp.app.get(UrlSigner);
    await storage.put('assets/1/10', Readable.from([data]));
    url = await storage.signedGetUrl('assets/1/10', {
      expirySeconds: 600,
      filename: 'photo.jpg',
      contentType: 'image/jpeg',
    });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('serves the exact bytes without a token, with download headers', async () => {
    const response = await testApp.http.get(pathOf(url)).expect(200);
    expect(Buffer.compare((await download(testApp, pathOf(url))).body, data)).toBe(0);
    expect(response.headers['content-type']).toBe('image/jpeg');
    expect(response.headers['content-length']).toBe('10000');
    // A safe image type is shown inline (issue 16); anything else downloads.
    expect(response.headers['content-disposition']).toBe('inline; filename="photo.jpg"');
    expect(response.headers['accept-ranges']).toBe('bytes');
    expect(response.headers['etag']).toMatch(/^"[^"]+"$/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(response.headers['cache-control'] as string)?.[1]);
    expect(maxAge).toBeGreaterThan(590);
    expect(maxAge).toBeLessThanOrEqual(600);
  });

  it('answers HEAD with the headers only', async () => {
    const response = await testApp.http.head(pathOf(url)).expect(200);
    expect(response.headers['content-length']).toBe('10000');
    // A safe image type is shown inline (issue 16); anything else downloads.
    expect(response.headers['content-disposition']).toBe('inline; filename="photo.jpg"');
  });

  it('defaults the content type and offers a safe name for a hostile file name', async () => {
    const hostile = await storage.signedGetUrl('assets/1/10', {
      expirySeconds: 60,
      filename: '../evil\r\nX-Injected: 1\u0000.txt',
    });
    const response = await testApp.http.get(pathOf(hostile)).expect(200);
    expect(response.headers['x-injected']).toBeUndefined();
    expect(response.headers['content-disposition']).toBe('attachment; filename="evilX-Injected: 1.txt"');
    expect(response.headers['content-type']).toBe('application/octet-stream');
  });

  it('offers non-ASCII names through filename*', async () => {
    const named = await storage.signedGetUrl('assets/1/10', { expirySeconds: 60, filename: 'Größe.txt' });
    const response = await testApp.http.get(pathOf(named)).expect(200);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="Gro_e.txt"; filename*=UTF-8''Gr%C3%B6%C3%9Fe.txt`,
    );
  });

  it.each([
    ['bytes=10-19', 10, 19],
    ['bytes=9990-', 9990, 9999],
    ['bytes=-5', 9995, 9999],
    ['bytes=0-0', 0, 0],
    ['bytes=9000-20000', 9000, 9999],
  ])('serves the range %s as 206', async (range, start, end) => {
    const response = await download(testApp, pathOf(url), { Range: range });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes ${start}-${end}/10000`);
    expect(response.headers.get('content-length')).toBe(String(end - start + 1));
    expect(Buffer.compare(response.body, data.subarray(start, end + 1))).toBe(0);
  });

  it('answers an unsatisfiable range with 416', async () => {
    const response = await testApp.http.get(pathOf(url)).set('Range', 'bytes=10000-').expect(416);
    expect(response.headers['content-range']).toBe('bytes */10000');
  });

  it('ignores ranges it does not serve (several ranges, other units, a stale If-Range)', async () => {
    const several = await testApp.http.get(pathOf(url)).set('Range', 'bytes=0-1,5-6').expect(200);
    expect(several.headers['content-length']).toBe('10000');
    await testApp.http.get(pathOf(url)).set('Range', 'items=0-1').expect(200);
    await testApp.http.get(pathOf(url)).set('Range', 'bytes=0-1').set('If-Range', '"stale"').expect(200);
  });

  it('answers 304 to a matching If-None-Match, and 200 to another', async () => {
    const first = await testApp.http.get(pathOf(url)).expect(200);
    const etag = first.headers['etag'] as string;
    const cached = await testApp.http.get(pathOf(url)).set('If-None-Match', etag).expect(304);
    expect(cached.headers['etag']).toBe(etag);
    expect(cached.text ?? '').toBe('');
    await testApp.http.get(pathOf(url)).set('If-None-Match', '"something-else"').expect(200);
    await testApp.http.get(pathOf(url)).set('Range', 'bytes=0-1').set('If-Range', etag).expect(206);
  });

  it('refuses a tampered signature', async () => {
    const key = new URL(url).searchParams.get('key') ?? '';
    const tampered = withParam(url, 'key', `${key[0] === 'A' ? 'B' : 'A'}${key.slice(1)}`);
    const response = await testApp.http.get(tampered).expect(403);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.text).toBe('the signed URL is invalid');
  });

  it('refuses a changed file name, content type or path', async () => {
    expect((await testApp.http.get(withParam(url, 'filename', 'photo.exe')).expect(403)).text).toBe(
      'the signed URL is invalid',
    );
    await testApp.http.get(withParam(url, 'contentType', 'text/html')).expect(403);
    await testApp.http.get(pathOf(url).replace('/assets/1/10', '/assets/1/11')).expect(403);
  });

  it('refuses unsigned requests', async () => {
    expect((await testApp.http.get('/files/assets/1/10').expect(403)).text).toBe('the signed URL is invalid');
  });

  it('refuses an expired URL', async () => {
    const unsigned = new URL(url);
    unsigned.searchParams.delete('key');
    const expired = signer.sign(unsigned.toString(), Math.floor(Date.now() / 1000) - 1);
    const response = await testApp.http.get(pathOf(expired)).expect(403);
    expect(response.text).toBe('the signed URL has expired');
  });

  it('expires a URL once its time has passed', async () => {
    const short = await storage.signedGetUrl('assets/1/10', { expirySeconds: 1 });
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect((await testApp.http.get(pathOf(short)).expect(403)).text).toBe('the signed URL has expired');
  });

  it('answers 404 for a signed URL of an object that is gone', async () => {
    await storage.put('assets/2/20', Readable.from([Buffer.from('short-lived')]));
    const gone = await storage.signedGetUrl('assets/2/20', { expirySeconds: 60 });
    await storage.delete('assets/2/20');
    await testApp.http.get(pathOf(gone)).expect(404);
  });

  it('survives a client that aborts mid-download', async () => {
    const big = Buffer.alloc(16 * 1024 * 1024, 7);
    await storage.put('assets/3/30', Readable.from([big]));
    const bigUrl = pathOf(await storage.signedGetUrl('assets/3/30', { expirySeconds: 60 }));
    await new Promise<void>((resolve, reject) => {
      const request = http.get(`${testApp.baseUrl}${bigUrl}`, (response) => {
        response.once('data', () => {
          request.destroy();
          resolve();
        });
      });
      request.on('error', (error) =>
        (error as NodeJS.ErrnoException).code === 'ECONNRESET' ? resolve() : reject(error),
      );
    });
    const again = await download(testApp, bigUrl, { Range: 'bytes=-3' });
    expect(again.status).toBe(206);
    expect(Buffer.compare(again.body, Buffer.alloc(3, 7))).toBe(0);
  });

  it('reports the store in /health, and 503 when it is unusable', async () => {
    const healthy = await testApp.http.get('/health').expect(200);
    expect(healthy.body.details.storage).toEqual({ status: 'up' });
    const temp = path.join(testApp.config.dataDir, 'storage', '.tmp');
    fs.rmSync(temp, { recursive: true, force: true });
    try {
      await testApp.http.get('/health').expect(503);
    } finally {
      fs.mkdirSync(temp, { recursive: true });
    }
    await testApp.http.get('/health').expect(200);
  });
});

describe('GET /files/{key} with the minio store', () => {
  let store: TestObjectStore;
  let testApp: TestApp;

  beforeAll(async () => {
    store = await startObjectStore();
    testApp = await TestApp.start({ env: store.env });
  });

  afterAll(async () => {
    await testApp?.close();
    await store?.stop();
  });

  it('does not exist: the store presigns its own URLs, which work without a token', async () => {
    const storage = testApp.app.get(ObjectStorage);
    const data = randomBytes(2_000);
    await storage.put('assets/1/10', Readable.from([data]));
    const url = await storage.signedGetUrl('assets/1/10', { expirySeconds: 60, filename: 'photo.jpg' });
    expect(url.startsWith(testApp.baseUrl)).toBe(false);
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(Buffer.compare(Buffer.from(await response.arrayBuffer()), data)).toBe(0);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="photo.jpg"');

    const signer = testApp.app.get(UrlSigner);
    const lookalike = signer.sign(`${testApp.baseUrl}/files/assets/1/10`, Math.floor(Date.now() / 1000) + 60);
    await testApp.http.get(pathOf(lookalike)).expect(404);
  });

  it('reports the store in /health, and 503 when it is down', async () => {
    const healthy = await testApp.http.get('/health').expect(200);
    expect(healthy.body.details.storage).toEqual({ status: 'up' });
    await store.stop();
    await testApp.http.get('/health').expect(503);
  });
});
