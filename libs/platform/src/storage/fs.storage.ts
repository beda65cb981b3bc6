import { randomUUID } from 'node:crypto';
import { constants, createWriteStream, Dirent } from 'node:fs';
import { access, mkdir, open, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { UrlService } from '../http/url.service';
import { assertValidKey, assertValidPrefix, InvalidObjectKey } from './object-key';
import {
  ByteRange,
  ObjectNotFound,
  ObjectStat,
  ObjectStorage,
  SignedUrlOptions,
  StoredObject,
} from './object-storage.port';
import { concatenated, HashingMeter } from './object-streams';
import { UrlSigner } from './url-signer';

const TEMP_FOLDER = '.tmp';
/** An upload that has not written for a day is not coming back. */
const STALE_TEMP_MS = 24 * 3600 * 1000;

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
    await mkdir(this.tempDir, { recursive: true });
    await this.removeStaleTempFiles();
  }

  async ping(): Promise<void> {
    await access(this.tempDir, constants.W_OK);
  }

  async put(key: string, body: Readable): Promise<StoredObject> {
    const target = this.pathOf(key);
    await mkdir(this.tempDir, { recursive: true });
    const temp = path.join(this.tempDir, randomUUID());
    const meter = new HashingMeter();
    try {
      // `flush` fsyncs the file before it is closed, so the rename below publishes durable bytes.
      await pipeline(body, meter, createWriteStream(temp, { flags: 'wx', flush: true }));
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

  async concatenate(sourceKeys: string[], targetKey: string): Promise<StoredObject> {
    return this.put(
      targetKey,
      concatenated(sourceKeys, (key) => this.get(key)),
    );
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
      await mkdir(path.dirname(target), { recursive: true });
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
