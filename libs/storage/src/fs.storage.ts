import { createHash, randomUUID } from 'node:crypto';
import { constants, createWriteStream, Dirent } from 'node:fs';
import { access, chmod, FileHandle, mkdir, open, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { UrlService } from '@dam/http';
import { assertValidKey, assertValidPrefix, InvalidObjectKey } from './object-key';
import {
  ByteRange,
  ObjectNotFound,
  ObjectStat,
  ObjectStorage,
  SignedUrlOptions,
  StoredObject,
} from './object-storage.port';
import { HashingTap } from './object-streams';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE, privateFolderSync } from '@dam/core';
import { UrlSigner } from './url-signer';

const TEMP_FOLDER = '.tmp';
/** An upload that has not written for a day is not coming back. */
const STALE_TEMP_MS = 24 * 3600 * 1000;
/**
 * Concatenation copies through two buffers of this size: one is written (and hashed) while the other is
 * read, so hashing on the main thread overlaps the disk work done in libuv's thread pool. Measured on the
 * 2-core machine (32 x 16 MiB): 256 KiB keeps the copy at 1.5-1.9x `cat` + fsync in every round; 1-8 MiB
 * buffers (which no longer fit the CPU caches with the hash in between) reached 1.6-2x only on a quiet
 * disk and 4-6x right after another large write.
 */
const COPY_BUFFER_BYTES = 256 * 1024;

/**
 * How much of an upload the file stream may hold before it pushes back on the socket: large enough that
 * the socket's 64 KiB reads queue up and go to the disk as one writev instead of one write each. 1 MiB was
 * faster still (512 MiB PUT 2.1 s against 2.4 s here, 2.8 s with the 64 KiB default, Node 24) but let the
 * peak RSS of a 1 GiB upload pass 200 MB: bench/results/latest.md.
 */
const WRITE_BUFFER_BYTES = 256 * 1024;

/**
 * Objects as files under `{dataDir}/storage/{key}`. Writes go to `.tmp/` first and are renamed into
 * place after fsync, so readers see a whole object or none. Signed URLs point at the service's own
 * `GET /files/{key}` route (FilesController).
 */
export class FsObjectStorage extends ObjectStorage {
  readonly root: string;
  private readonly tempDir: string;

  constructor(
    dataDir: string,
    private readonly signer: UrlSigner,
    private readonly urls: UrlService,
  ) {
    super();
    this.root = path.resolve(dataDir, 'storage');
    this.tempDir = path.join(this.root, TEMP_FOLDER);
  }

  async init(): Promise<void> {
    privateFolderSync(path.dirname(this.root));
    await mkdir(this.tempDir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    await chmod(this.root, PRIVATE_FOLDER_MODE);
    await this.removeStaleTempFiles();
  }

  async ping(): Promise<void> {
    await access(this.tempDir, constants.W_OK);
  }

  async put(key: string, body: Readable): Promise<StoredObject> {
    const target = this.pathOf(key);
    await mkdir(this.tempDir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    const temp = path.join(this.tempDir, randomUUID());
    // Attached in the same tick as the pipeline below, so it sees every chunk the file gets.
    const meter = new HashingTap(body);
    try {
      // `flush` fsyncs the file before it is closed, so the rename below publishes durable bytes.
      await pipeline(
        body,
        createWriteStream(temp, {
          flags: 'wx',
          mode: PRIVATE_FILE_MODE,
          flush: true,
          highWaterMark: WRITE_BUFFER_BYTES,
        }),
      );
      await this.moveIntoPlace(temp, target);
    } catch (error) {
      body.destroy();
      await rm(temp, { force: true });
      throw error;
    }
    return { key, size: meter.size, sha256: meter.sha256() };
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const file = this.pathOf(key);
    const handle = await open(file, 'r').catch((error: unknown) => {
      throw isMissing(error) ? new ObjectNotFound(key) : error;
    });
    const isFile = await handle.stat().then(
      (stats) => stats.isFile(),
      () => false,
    );
    if (!isFile) {
      await handle.close();
      throw new ObjectNotFound(key);
    }
    return handle.createReadStream(range === undefined ? {} : { start: range.start, end: range.end });
  }

  async stat(key: string): Promise<ObjectStat | undefined> {
    try {
      const stats = await stat(this.pathOf(key), { bigint: true });
      if (!stats.isFile()) return undefined;
      // A replaced object is a new file (new inode), so inode + size + mtime changes with the content.
      const etag = [stats.ino, stats.size, stats.mtimeNs].map((part) => part.toString(36)).join('-');
      return { size: Number(stats.size), etag, lastModified: new Date(Number(stats.mtimeMs)) };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const file = this.pathOf(key);
    await rm(file, { force: true });
    await this.pruneEmptyFolders(path.dirname(file));
  }

  async deletePrefix(prefix: string): Promise<void> {
    assertValidPrefix(prefix);
    if (prefix.endsWith('/')) {
      const folder = this.pathOf(prefix.slice(0, -1));
      await rm(folder, { recursive: true, force: true });
      await this.pruneEmptyFolders(path.dirname(folder));
      return;
    }
    for await (const key of this.list(prefix)) await this.delete(key);
  }

  async *list(prefix: string): AsyncIterable<string> {
    assertValidPrefix(prefix);
    const folder = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
    for await (const key of this.walk(folder)) {
      if (key.startsWith(prefix)) yield key;
    }
  }

  /**
   * Copies the sources into a temp file with large positioned reads and writes (two reused buffers,
   * hashing each buffer while the next is read and it is written), then fsyncs and renames it into place,
   * as `put` does. Sources are opened one at a time; a missing one throws ObjectNotFound and leaves nothing.
   */
  async concatenate(sourceKeys: string[], targetKey: string): Promise<StoredObject> {
    const target = this.pathOf(targetKey);
    const sources = sourceKeys.map((key) => ({ key, file: this.pathOf(key) }));
    await mkdir(this.tempDir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    const temp = path.join(this.tempDir, randomUUID());
    let output: FileHandle | undefined = await open(temp, 'wx', PRIVATE_FILE_MODE);
    try {
      const written = await copyConcatenated(sources, output);
      await output.sync();
      await output.close();
      output = undefined;
      await this.moveIntoPlace(temp, target);
      return { key: targetKey, ...written };
    } catch (error) {
      await output?.close().catch(() => undefined);
      await rm(temp, { force: true });
      throw error;
    }
  }

  async signedGetUrl(key: string, options: SignedUrlOptions): Promise<string> {
    assertValidKey(key);
    const url = this.urls.withQuery(this.urls.absolute('files', ...key.split('/')), {
      filename: options.filename,
      contentType: options.contentType,
    });
    return this.signer.sign(
      url,
      Math.floor(Date.now() / 1000) + Math.max(1, Math.ceil(options.expirySeconds)),
    );
  }

  /** Temp files a crash left behind; old ones only, as another instance may share the folder. */
  override localPath(key: string): string {
    assertValidKey(key);
    return this.pathOf(key);
  }

  private async removeStaleTempFiles(): Promise<void> {
    const cutoff = Date.now() - STALE_TEMP_MS;
    for (const name of await readdir(this.tempDir)) {
      const file = path.join(this.tempDir, name);
      const stats = await stat(file).catch(() => undefined);
      if (stats !== undefined && stats.mtimeMs < cutoff) await rm(file, { force: true, recursive: true });
    }
  }

  /** Renames the finished temp file to its key; retries once if a concurrent delete pruned the folder. */
  private async moveIntoPlace(temp: string, target: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      await mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_FOLDER_MODE });
      try {
        await rename(temp, target);
        break;
      } catch (error) {
        if (attempt >= 3 || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    await syncDirectory(path.dirname(target));
  }

  /** Removes now-empty folders up to the root, so deleted assets leave no folder behind. */
  private async pruneEmptyFolders(folder: string): Promise<void> {
    for (
      let current = folder;
      current.startsWith(`${this.root}${path.sep}`);
      current = path.dirname(current)
    ) {
      try {
        await rmdir(current);
      } catch {
        return; // not empty (or already gone): stop climbing
      }
    }
  }

  /** Keys below `folder` (a key prefix without trailing slash, '' for all), skipping the temp folder. */
  private async *walk(folder: string): AsyncGenerator<string> {
    let entries: Dirent[];
    try {
      entries = await readdir(folder === '' ? this.root : this.pathOf(folder), { withFileTypes: true });
    } catch (error) {
      if (isMissing(error) || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return;
      throw error;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (folder === '' && entry.name === TEMP_FOLDER) continue;
      const key = folder === '' ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory()) yield* this.walk(key);
      else if (entry.isFile()) yield key;
    }
  }

  /** The file of a key; refuses keys that are malformed or would resolve outside the root. */
  private pathOf(key: string): string {
    assertValidKey(key);
    const resolved = path.resolve(this.root, ...key.split('/'));
    if (!resolved.startsWith(`${this.root}${path.sep}`)) throw new InvalidObjectKey(key);
    return resolved;
  }
}

/**
 * Reads `sources` in order into `output` through two reused buffers: while buffer A is written and
 * hashed, buffer B is read. Both operations settle before a buffer is reused, so no I/O still touches it.
 */
async function copyConcatenated(
  sources: { key: string; file: string }[],
  output: FileHandle,
): Promise<{ size: number; sha256: string }> {
  const reader = new SequentialReader(sources);
  const hash = createHash('sha256');
  let current = Buffer.allocUnsafeSlow(COPY_BUFFER_BYTES);
  let spare = Buffer.allocUnsafeSlow(COPY_BUFFER_BYTES);
  let size = 0;
  try {
    let filled = await reader.read(current);
    while (filled > 0) {
      const writing = writeFully(output, current, filled, size);
      const reading = reader.read(spare);
      hash.update(current.subarray(0, filled));
      const [, next] = await settleBoth(writing, reading);
      size += filled;
      [current, spare] = [spare, current];
      filled = next;
    }
  } finally {
    await reader.close();
  }
  return { size, sha256: hash.digest('hex') };
}

/** The sources as one sequence of bytes, each file opened when the previous one is exhausted. */
class SequentialReader {
  private index = 0;
  private handle: FileHandle | undefined;

  constructor(private readonly sources: { key: string; file: string }[]) {}

  /** Fills `buffer` from the start with the next bytes (up to its length); 0 once every source is read. */
  async read(buffer: Buffer): Promise<number> {
    for (;;) {
      const source = this.sources[this.index];
      if (source === undefined) return 0;
      try {
        this.handle ??= await open(source.file, 'r');
        const { bytesRead } = await this.handle.read(buffer, 0, buffer.length, null);
        if (bytesRead > 0) return bytesRead;
      } catch (error) {
        throw isMissing(error) ? new ObjectNotFound(source.key) : error;
      }
      await this.close();
      this.index += 1;
    }
  }

  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close().catch(() => undefined);
  }
}

async function writeFully(
  output: FileHandle,
  buffer: Buffer,
  length: number,
  position: number,
): Promise<void> {
  for (let offset = 0; offset < length;) {
    const { bytesWritten } = await output.write(buffer, offset, length - offset, position + offset);
    offset += bytesWritten;
  }
}

/** Awaits both; throws the first failure only once neither is still running. */
async function settleBoth<A, B>(a: Promise<A>, b: Promise<B>): Promise<[A, B]> {
  const [first, second] = await Promise.allSettled([a, b]);
  if (first.status === 'rejected') throw first.reason;
  if (second.status === 'rejected') throw second.reason;
  return [first.value, second.value];
}

async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}
