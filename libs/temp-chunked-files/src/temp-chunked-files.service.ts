import { Injectable, Logger } from '@nestjs/common';
import { ActorUser, isSelfOrAdmin } from '@dam/access';
import { AppConfig } from '@dam/core';
import { TooLarge } from '@dam/errors';
import { DigestCheck, sizeLimited, UrlService, UploadTooLarge } from '@dam/http';
import { PurgeHooks } from '@dam/jobs';
import { concatenated, ObjectStorage } from '@dam/storage';
import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { TempChunkedFileEntity } from './entities/temp-chunked-file.entity';
import { TempChunkedFilesRepository } from './temp-chunked-files.repository';
import {
  ChunkTooLarge,
  NotATempFileUrl,
  TempFileNotFound,
  TempFileNotUsable,
} from './temp-chunked-file-errors';
import { isTempFileId, tempFilePrefix } from './temp-file-id';

export interface StoredChunk {
  index: number;
  size: number;
}

/** A chunk present in a temp file, as listed for a client that resumes (`GET .../chunks`). */
export interface ChunkSummary {
  index: number;
  size: number;
  /** Hex SHA-256 of the chunk; null for chunks stored before it was recorded. */
  sha256: string | null;
}

export interface TempFileContent {
  /** Sum of the chunk sizes: the exact length of `body`. */
  size: number;
  /** The chunks in index order, each object opened only when the previous one has been read. */
  body: Readable;
}

const PURGE_BATCH = 200;

/**
 * Temp chunked files: created empty, filled by numbered chunks in any order, read back as the
 * concatenation of the chunks present, deleted by their user or purged when untouched for
 * DAM_TEMP_FILE_TTL_HOURS. Only the creator and admins (or the application user) may use one; to
 * anyone else it does not exist (404), so ids never leak.
 *
 * Each chunk upload writes a fresh object first, then switches the chunk row to it, then deletes the
 * object it replaced: a crash leaves at worst an orphan object under the file's prefix, removed with
 * the file.
 */
@Injectable()
export class TempChunkedFilesService {
  private readonly logger = new Logger('TempChunkedFiles');

  constructor(
    private readonly files: TempChunkedFilesRepository,
    private readonly storage: ObjectStorage,
    private readonly config: AppConfig,
    private readonly urls: UrlService,
  ) {}

  async create(actor: ActorUser, now = new Date()): Promise<TempChunkedFileEntity> {
    const file = Object.assign(new TempChunkedFileEntity(), {
      id: randomUUID(),
      createdByUserId: actor.id,
      createdAt: now,
      touchedAt: now,
    });
    await this.files.insert(file);
    return file;
  }

  /**
   * Stores chunk `index` from `body`, replacing an earlier upload of that index. With `digests` (from
   * Content-Digest or Content-MD5), bytes that do not match are refused (400) and the earlier chunk stays.
   * A chunk holds at most DAM_MAX_CHUNK_BYTES, and all chunks of a file at most DAM_MAX_UPLOAD_BYTES (413).
   */
  async putChunk(
    actor: ActorUser,
    id: string,
    index: number,
    body: Readable,
    declaredLength?: number,
    digests: DigestCheck = new DigestCheck([]),
  ): Promise<StoredChunk> {
    await this.usableFileOrThrow(actor, id);
    const others = (await this.files.listChunks(id))
      .filter((chunk) => chunk.chunkIndex !== index)
      .reduce((sum, chunk) => sum + chunk.size, 0);
    const room = this.config.maxUploadBytes - others;
    const max = Math.min(this.config.maxChunkBytes, Math.max(room, 0));
    const tooLarge = (): TooLarge =>
      room < this.config.maxChunkBytes
        ? new UploadTooLarge(this.config.maxUploadBytes)
        : new ChunkTooLarge(this.config.maxChunkBytes);
    if (declaredLength !== undefined && declaredLength > max) throw tooLarge();
    const key = `${tempFilePrefix(id)}${index}-${randomBytes(8).toString('hex')}`;
    let size: number;
    let sha256: string;
    try {
      const limited = sizeLimited(body, max, tooLarge).stream;
      ({ size, sha256 } = await this.storage.put(key, digests.measured(limited)));
      // Checked before the switch: a chunk that does not match never replaces the one stored.
      digests.verify(`chunk ${index}`, sha256);
    } catch (error) {
      await this.deleteObjectQuietly(key); // a partial or refused object
      throw error;
    }
    const outcome = await this.files.switchChunk({
      fileId: id,
      index,
      storageKey: key,
      size,
      sha256,
      at: new Date(),
    });
    if (!outcome.switched) {
      await this.deleteObjectQuietly(key);
      throw new TempFileNotFound(id);
    }
    if (outcome.replacedKey !== undefined) await this.deleteObjectQuietly(outcome.replacedKey);
    return { index, size };
  }

  /** The chunks present, in index order, with their sizes and digests: what a resuming client skips. */
  async listChunks(actor: ActorUser, id: string): Promise<ChunkSummary[]> {
    await this.usableFileOrThrow(actor, id);
    const chunks = await this.files.listChunks(id);
    return chunks.map((chunk) => ({ index: chunk.chunkIndex, size: chunk.size, sha256: chunk.sha256 }));
  }

  /** The chunks present, concatenated in index order. */
  async read(actor: ActorUser, id: string): Promise<TempFileContent> {
    await this.usableFileOrThrow(actor, id);
    const chunks = await this.files.listChunks(id);
    return {
      size: chunks.reduce((sum, chunk) => sum + chunk.size, 0),
      body: concatenated(
        chunks.map((chunk) => chunk.storageKey),
        (key) => this.storage.get(key),
      ),
    };
  }

  async delete(actor: ActorUser, id: string): Promise<void> {
    const file = await this.files.findById(id);
    if (file === null || !mayUse(actor, file)) throw new TempFileNotFound(id);
    if (await this.files.delete(id)) await this.storage.deletePrefix(tempFilePrefix(id));
  }

  /**
   * For content uploads (X-Copy-Temp-Chunked-File): the storage keys of the file's chunks in index
   * order. A file that does not exist or is not the actor's is a bad header value: 400.
   */
  async chunkKeysOrThrow(actor: ActorUser, id: string): Promise<string[]> {
    const file = isTempFileId(id) ? await this.files.findById(id) : null;
    if (file === null || !mayUse(actor, file)) {
      throw new TempFileNotUsable(id);
    }
    await this.files.touch(id, new Date());
    return (await this.files.listChunks(id)).map((chunk) => chunk.storageKey);
  }

  /** The id in a temp chunked file URL; 400 when the URL names something else. */
  parseUrlOrThrow(url: unknown, field: string): string {
    const id = this.urls.matchRest(url, 'temp-chunked-files/:id', field)?.id;
    if (id === undefined || !isTempFileId(id)) {
      throw new NotATempFileUrl(url);
    }
    return id;
  }

  /**
   * Removes files untouched for DAM_TEMP_FILE_TTL_HOURS before `now`, with their objects, then objects
   * left under `temp/` by files that no longer exist (a crash between the row and the objects). Returns
   * how many files were removed.
   */
  async purgeStale(now: Date, hooks: PurgeHooks = {}): Promise<number> {
    const cutoff = new Date(now.getTime() - this.config.tempFileTtlHours * 3_600_000);
    let removed = 0;
    for (;;) {
      await hooks.checkpoint?.();
      const ids = await this.files.findStaleIds(cutoff, PURGE_BATCH);
      for (const id of ids) {
        // Only if still stale: a chunk may have arrived since the query.
        if (!(await this.files.deleteIfStale(id, cutoff))) continue;
        await this.storage.deletePrefix(tempFilePrefix(id));
        removed += 1;
        hooks.removed?.(id);
      }
      if (ids.length < PURGE_BATCH) break;
    }
    const orphans = await this.sweepOrphans();
    if (removed > 0 || orphans > 0) {
      this.logger.log(
        `purged ${removed} stale temp chunked files and the objects of ${orphans} deleted ones`,
      );
    }
    return removed;
  }

  /** The ids purgeStale would remove at `now` (the oldest `limit`), removing nothing: the job's dry run. */
  async staleIds(now: Date, limit: number): Promise<string[]> {
    const cutoff = new Date(now.getTime() - this.config.tempFileTtlHours * 3_600_000);
    return this.files.findStaleIds(cutoff, limit);
  }

  /** Deletes the objects of temp files whose row is gone. Rows are created before any object, so these are garbage. */
  private async sweepOrphans(): Promise<number> {
    const seen = new Set<string>();
    for await (const key of this.storage.list('temp/')) {
      const id = key.split('/')[1];
      if (id !== undefined && isTempFileId(id)) seen.add(id);
    }
    const existing = await this.files.existingIds([...seen]);
    const orphans = [...seen].filter((id) => !existing.has(id));
    for (const id of orphans) await this.storage.deletePrefix(tempFilePrefix(id));
    return orphans.length;
  }

  /** The file when the actor may use it, touched now; 404 otherwise. */
  private async usableFileOrThrow(actor: ActorUser, id: string): Promise<TempChunkedFileEntity> {
    const file = await this.files.findById(id);
    if (file === null || !mayUse(actor, file)) throw new TempFileNotFound(id);
    await this.files.touch(id, new Date());
    return file;
  }

  private async deleteObjectQuietly(key: string): Promise<void> {
    try {
      await this.storage.delete(key);
    } catch (error) {
      this.logger.warn(
        `could not delete ${key} (left for the purge): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}

/** The creator, admins and the application user; nobody once the creator is deleted, but admins. */
function mayUse(actor: ActorUser, file: TempChunkedFileEntity): boolean {
  return isSelfOrAdmin(actor, file.createdByUserId);
}
