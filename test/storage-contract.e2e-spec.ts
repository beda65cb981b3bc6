import { AppConfig } from '@dam/core';
import { Settings } from '@dam/database';
import { UrlService } from '@dam/http';
import {
  FsObjectStorage,
  InvalidObjectKey,
  createMinioStorage,
  ObjectNotFound,
  ObjectStorage,
  UrlSigner,
} from '@dam/storage';
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { DataSource } from 'typeorm';
import { startObjectStoreApart } from './helpers/object-store';

interface Subject {
  storage: ObjectStorage;
  close(): Promise<void>;
}

const MiB = 1024 * 1024;

jest.setTimeout(120_000);

async function createFsSubject(): Promise<Subject> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-storage-'));
  const config = AppConfig.fromEnv({
    DAM_DATA_DIR: dataDir,
    DAM_URL_SIGNING_SECRET: randomBytes(32).toString('hex'),
  });
  // The configured secret means the signer never touches this (unconnected) data source.
  const signer = new UrlSigner(
    config,
    new Settings(new DataSource({ type: 'better-sqlite3', database: ':memory:' })),
  );
  await signer.onModuleInit();
  const storage = new FsObjectStorage(config.dataDir, signer, new UrlService(config));
  await storage.init();
  return { storage, close: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
}

async function createMinioSubject(): Promise<Subject> {
  // Apart: the 256 MB round trip measures this process's memory, the adapter's alone.
  const store = await startObjectStoreApart();
  const settings = AppConfig.fromEnv(store.env).minio;
  if (settings === undefined) throw new Error('the test object store gave no MinIO settings');
  const storage = await createMinioStorage(settings);
  await storage.init();
  return { storage, close: () => store.stop() };
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** A stream of the buffer in uneven chunks, as a network upload arrives. */
function chunked(data: Buffer, chunkSize = 7_777): Readable {
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < data.length; offset += chunkSize)
    chunks.push(data.subarray(offset, offset + chunkSize));
  return Readable.from(chunks);
}

/** Sends `before` bytes, then fails, like a client that disconnects mid-upload. */
function failingAfter(before: number): Readable {
  async function* body(): AsyncGenerator<Buffer> {
    for (let sent = 0; sent < before; sent += 64 * 1024)
      yield randomBytes(Math.min(64 * 1024, before - sent));
    throw new Error('client went away');
  }
  return Readable.from(body());
}

/** `size` bytes generated on the fly (never held whole), and the SHA-256 of what was generated. */
function generated(size: number): { stream: Readable; sha256: () => string } {
  const block = randomBytes(MiB);
  const hash = createHash('sha256');
  async function* body(): AsyncGenerator<Buffer> {
    const chunkSize = 64 * 1024 + 3;
    for (let sent = 0, turn = 0; sent < size; sent += chunkSize, turn++) {
      const start = (turn * 4099) % (block.length - chunkSize);
      const chunk = block.subarray(start, start + Math.min(chunkSize, size - sent));
      hash.update(chunk);
      yield chunk;
    }
  }
  return { stream: Readable.from(body()), sha256: () => hash.digest('hex') };
}

/** Samples RSS every 20 ms while `work` runs; returns the largest growth over the starting value. */
async function peakRssGrowth<T>(work: () => Promise<T>): Promise<{ result: T; growth: number }> {
  const maybeGc = (globalThis as { gc?: () => void }).gc;
  maybeGc?.();
  const start = process.memoryUsage().rss;
  let peak = start;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, growth: peak - start };
  } finally {
    clearInterval(sampler);
  }
}

function storageContract(name: string, create: () => Promise<Subject>): void {
  describe(`ObjectStorage contract: ${name}`, () => {
    let subject: Subject;
    let storage: ObjectStorage;

    beforeAll(async () => {
      subject = await create();
      storage = subject.storage;
    });

    afterAll(async () => {
      await subject?.close();
    });

    it('stores a stream and reads back the same bytes, with their size and SHA-256', async () => {
      const data = randomBytes(100_003);
      const stored = await storage.put('assets/1/original', chunked(data), { contentType: 'image/png' });
      expect(stored).toEqual({ key: 'assets/1/original', size: data.length, sha256: sha256(data) });
      expect(await readAll(await storage.get('assets/1/original'))).toEqual(data);
    });

    it('stores an empty object', async () => {
      const stored = await storage.put('empty/one', Readable.from([]));
      expect(stored.size).toBe(0);
      expect(stored.sha256).toBe(sha256(Buffer.alloc(0)));
      expect((await readAll(await storage.get('empty/one'))).length).toBe(0);
    });

    it('reads an inclusive byte range', async () => {
      const data = Buffer.from('0123456789abcdefghij');
      await storage.put('ranges/text', chunked(data, 3));
      expect((await readAll(await storage.get('ranges/text', { start: 3, end: 9 }))).toString()).toBe(
        '3456789',
      );
      expect((await readAll(await storage.get('ranges/text', { start: 0, end: 0 }))).toString()).toBe('0');
      expect((await readAll(await storage.get('ranges/text', { start: 15, end: 19 }))).toString()).toBe(
        'fghij',
      );
    });

    it('stats an object, and gives a new etag when it is replaced', async () => {
      await storage.put('stat/object', chunked(Buffer.from('first version')));
      const first = await storage.stat('stat/object');
      expect(first).toEqual({ size: 13, etag: expect.any(String), lastModified: expect.any(Date) });
      expect(first?.etag).not.toBe('');
      await storage.put('stat/object', chunked(Buffer.from('second version')));
      const second = await storage.stat('stat/object');
      expect(second?.size).toBe(14);
      expect(second?.etag).not.toBe(first?.etag);
      expect(await readAll(await storage.get('stat/object'))).toEqual(Buffer.from('second version'));
    });

    it('reports a missing object as ObjectNotFound on get and undefined on stat', async () => {
      await expect(storage.get('missing/object')).rejects.toBeInstanceOf(ObjectNotFound);
      await expect(storage.get('missing/object', { start: 0, end: 1 })).rejects.toBeInstanceOf(
        ObjectNotFound,
      );
      expect(await storage.stat('missing/object')).toBeUndefined();
    });

    it('deletes idempotently', async () => {
      await storage.put('delete/me', chunked(Buffer.from('bye')));
      await storage.delete('delete/me');
      await storage.delete('delete/me');
      await storage.delete('delete/never-existed');
      expect(await storage.stat('delete/me')).toBeUndefined();
    });

    it('lists keys by prefix and deletes by prefix', async () => {
      for (const key of ['tree/a/1', 'tree/a/2', 'tree/a/b/3', 'tree/ab/4', 'tree/c']) {
        await storage.put(key, chunked(Buffer.from(key)));
      }
      const list = async (prefix: string) => {
        const keys: string[] = [];
        for await (const key of storage.list(prefix)) keys.push(key);
        return keys.sort();
      };
      expect(await list('tree/')).toEqual(['tree/a/1', 'tree/a/2', 'tree/a/b/3', 'tree/ab/4', 'tree/c']);
      expect(await list('tree/a/')).toEqual(['tree/a/1', 'tree/a/2', 'tree/a/b/3']);
      expect(await list('tree/a')).toEqual(['tree/a/1', 'tree/a/2', 'tree/a/b/3', 'tree/ab/4']);
      expect(await list('nothing/here/')).toEqual([]);

      await storage.deletePrefix('tree/a/');
      expect(await list('tree/')).toEqual(['tree/ab/4', 'tree/c']);
      await storage.deletePrefix('tree/a');
      expect(await list('tree/')).toEqual(['tree/c']);
      await storage.deletePrefix('nothing/here/');
      expect(await readAll(await storage.get('tree/c'))).toEqual(Buffer.from('tree/c'));
    });

    it('concatenates small uneven objects byte-exactly, leaving the sources', async () => {
      const parts = [
        randomBytes(1),
        randomBytes(1_000),
        randomBytes(70_001),
        randomBytes(3),
        Buffer.alloc(0),
      ];
      const keys = parts.map((_, index) => `temp/small/${index}`);
      for (const [index, part] of parts.entries()) await storage.put(keys[index], chunked(part));
      const whole = Buffer.concat(parts);
      const stored = await storage.concatenate(keys, 'assets/2/whole');
      expect(stored).toEqual({ key: 'assets/2/whole', size: whole.length, sha256: sha256(whole) });
      expect(await readAll(await storage.get('assets/2/whole'))).toEqual(whole);
      expect(await storage.stat(keys[2])).toMatchObject({ size: 70_001 });
    });

    it('concatenates multi-MiB objects (server-side where possible) byte-exactly', async () => {
      const parts = [randomBytes(6 * MiB + 1), randomBytes(5 * MiB), randomBytes(17)];
      const keys = parts.map((_, index) => `temp/large/${index}`);
      for (const [index, part] of parts.entries()) await storage.put(keys[index], chunked(part, 256 * 1024));
      const whole = Buffer.concat(parts);
      const stored = await storage.concatenate(keys, 'assets/3/whole');
      expect(stored).toEqual({ key: 'assets/3/whole', size: whole.length, sha256: sha256(whole) });
      expect(sha256(await readAll(await storage.get('assets/3/whole')))).toBe(sha256(whole));
    });

    it('fails a concatenation with a missing source and writes nothing', async () => {
      await storage.put('temp/gap/0', chunked(Buffer.from('zero')));
      await expect(
        storage.concatenate(['temp/gap/0', 'temp/gap/1'], 'assets/4/whole'),
      ).rejects.toBeInstanceOf(ObjectNotFound);
      expect(await storage.stat('assets/4/whole')).toBeUndefined();
    });

    it.each([
      ['a small', 10_000],
      ['a multipart-sized', 9 * MiB],
    ])('leaves no object when %s upload stream fails', async (_label, before) => {
      await expect(storage.put('broken/upload', failingAfter(before))).rejects.toThrow('client went away');
      expect(await storage.stat('broken/upload')).toBeUndefined();
      const left: string[] = [];
      for await (const key of storage.list('broken/')) left.push(key);
      expect(left).toEqual([]);
    });

    it.each([
      'a/../b',
      '../escape',
      '/absolute',
      'a//b',
      'a/./b',
      '.hidden',
      'a\\b',
      'spaces not allowed',
      '',
    ])('refuses the key %j', async (key) => {
      await expect(storage.put(key, chunked(Buffer.from('x')))).rejects.toBeInstanceOf(InvalidObjectKey);
      await expect(storage.get(key)).rejects.toBeInstanceOf(InvalidObjectKey);
      await expect(storage.stat(key)).rejects.toBeInstanceOf(InvalidObjectKey);
      await expect(storage.delete(key)).rejects.toBeInstanceOf(InvalidObjectKey);
    });

    it('refuses prefixes that climb out', async () => {
      await expect(storage.deletePrefix('../')).rejects.toBeInstanceOf(InvalidObjectKey);
      await expect(async () => {
        for await (const key of storage.list('a/../')) void key;
      }).rejects.toBeInstanceOf(InvalidObjectKey);
    });

    it('round-trips a file over 256 MB byte-exactly without buffering it', async () => {
      // Large enough that holding it would show far above what V8 lets garbage buffers reach before it
      // collects them (about 64 MiB of external memory: a 100 MB file with a 64 MiB bound failed CI twice
      // at 75-80 MiB of peak RSS growth, in a Jest worker that had run other files first).
      const size = 256 * MiB + 12_345;
      const source = generated(size);
      const started = Date.now();
      const { result, growth } = await peakRssGrowth(async () => {
        const stored = await storage.put('big/file', source.stream);
        const putMs = Date.now() - started;
        const hash = createHash('sha256');
        let read = 0;
        for await (const chunk of await storage.get('big/file')) {
          hash.update(chunk as Buffer);
          read += (chunk as Buffer).length;
        }
        return { stored, read, readSha: hash.digest('hex'), putMs, totalMs: Date.now() - started };
      });
      if (process.env.DAM_STORAGE_FIGURES !== undefined) {
        console.log(
          `${name}: 256 MB put ${result.putMs} ms, put+get ${result.totalMs} ms, peak RSS growth ${(growth / MiB).toFixed(1)} MiB`,
        );
      }
      expect(result.stored.size).toBe(size);
      expect(result.stored.sha256).toBe(source.sha256());
      expect(result.read).toBe(size);
      expect(result.readSha).toBe(result.stored.sha256);
      expect(growth).toBeLessThan(128 * MiB);
      await storage.delete('big/file');
    });
  });
}

storageContract('fs', createFsSubject);
storageContract('minio', createMinioSubject);

describe('MinioObjectStorage signed URLs', () => {
  let subject: Subject;

  beforeAll(async () => {
    subject = await createMinioSubject();
  });

  afterAll(async () => {
    await subject?.close();
  });

  it('presigns a GET that serves the bytes with the file name and type', async () => {
    const data = randomBytes(4_321);
    await subject.storage.put('assets/9/original', chunked(data));
    const url = await subject.storage.signedGetUrl('assets/9/original', {
      expirySeconds: 60,
      filename: 'Quarterly report, final.pdf',
      contentType: 'application/pdf',
    });
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(data);
    expect(response.headers.get('content-disposition')).toBe(
      'attachment; filename="Quarterly report, final.pdf"',
    );
    expect(response.headers.get('content-type')).toBe('application/pdf');
  });

  it('presigns a URL that stops working when tampered with', async () => {
    await subject.storage.put('assets/9/other', chunked(Buffer.from('other')));
    const url = new URL(
      await subject.storage.signedGetUrl('assets/9/other', { expirySeconds: 60, filename: 'a.txt' }),
    );
    url.searchParams.set('response-content-disposition', 'attachment; filename="b.txt"');
    expect((await fetch(url)).status).toBe(403);
  });
});

describe('FsObjectStorage temp files', () => {
  let dataDir: string;
  let storage: FsObjectStorage;
  let tempDir: string;

  beforeAll(async () => {
    const subject = await createFsSubject();
    storage = subject.storage as FsObjectStorage;
    dataDir = path.dirname(storage.root);
    tempDir = path.join(storage.root, '.tmp');
  });

  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('leaves no temp file behind after a failed upload', async () => {
    await expect(storage.put('broken/upload', failingAfter(100_000))).rejects.toThrow('client went away');
    expect(fs.readdirSync(tempDir)).toEqual([]);
  });

  it('removes temp files a crash left behind a day ago, and only those, at init', async () => {
    const stale = path.join(tempDir, 'stale-upload');
    const recent = path.join(tempDir, 'recent-upload');
    fs.writeFileSync(stale, 'half an upload');
    fs.writeFileSync(recent, 'an upload in progress elsewhere');
    const twoDaysAgo = new Date(Date.now() - 48 * 3600 * 1000);
    fs.utimesSync(stale, twoDaysAgo, twoDaysAgo);
    await storage.init();
    expect(fs.readdirSync(tempDir)).toEqual(['recent-upload']);
    fs.rmSync(recent);
  });

  it('keeps the temp folder out of listings', async () => {
    await storage.put('listed/one', Readable.from([Buffer.from('1')]));
    const keys: string[] = [];
    for await (const key of storage.list('')) keys.push(key);
    expect(keys).toEqual(['listed/one']);
  });
});
