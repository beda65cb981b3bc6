import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { ActorUser, isSelfOrAdmin } from '@dam/access';
import { AssetUploadsService } from '@dam/asset-content';
import { AppConfig } from '@dam/core';
import { DomainError } from '@dam/errors';
import { sha256DigestField, statusOf, UrlService } from '@dam/http';
import { PurgeHooks } from '@dam/jobs';
import { ObjectStorage } from '@dam/storage';
import type { Server, Upload } from '@tus/server';
import type { Request as ExpressRequest, Response as ExpressResponse } from 'express';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { DatabaseLocker } from './database-locker';
import { TusUploadEntity } from './entities/tus-upload.entity';
import { parseUploadChecksum, parseUploadMetadata, UploadTarget, uploadTargetOrThrow } from './tus-headers';
import { header, metadataMap, requestBody, send, tusErrorAnswer, webHeaders } from './tus-bridge';
import { TusUploadNotFound } from './tus-errors';
import { createTusServer, createTusStore, ReadableDataStore } from './tus-runtime';
import { TusUploadsRepository } from './tus-uploads.repository';

/** Upload ids: 32 lowercase hex digits (the URL's last segment); the tus store keys them `tus/{id}`. */
const UPLOAD_ID = /^[0-9a-f]{32}$/;
const STORE_PREFIX = 'tus/';
/** Used as the original file name when Upload-Metadata names none. */
const DEFAULT_FILENAME = 'upload';

const PURGE_BATCH = 200;

export function isUploadId(value: string): boolean {
  return UPLOAD_ID.test(value);
}

/** `tus/{id}`, `tus/{id}.info`, `tus/{id}.json`, `tus/{id}.part` → `{id}`. */
function uploadIdOfKey(key: string): string {
  return key.slice(STORE_PREFIX.length).split('.')[0];
}

/** What the tus hooks need to know about the request they run for. */
interface RequestState {
  actor: ActorUser;
  target?: UploadTarget;
  /** Set when the upload became the asset's content: its bytes are removed before the answer. */
  completed?: string;
  /** Set when the asset refused the finished upload (or it was terminated): it is removed. */
  refused?: string;
}

interface TusRuntime {
  server: Server;
  store: ReadableDataStore;
}

/**
 * tus 1.0 at `/rest/tus/` (creation, creation-with-upload, termination, expiration, checksum) with
 * @tus/server on @tus/file-store (fs storage: files under the store's `tus/` folder) or @tus/s3-store
 * (minio: objects under `tus/` in the bucket), loaded on the first tus request.
 *
 * Before tus sees a request: the bearer token was checked (global guard); an upload's URL is usable by
 * its creator and admins only (404 to anyone else); a creation must name an asset in `Upload-Metadata`
 * (`assetId`) on which the actor may PUT content (403, 409 when checked out to someone else); a body with
 * `Upload-Checksum` is spooled to a temp file while hashed, and refused with 460 when it does not match,
 * so a bad PATCH never reaches the store. When the last byte arrives, the upload becomes the asset's
 * content through AssetUploadsService exactly as a content PUT (version, renditions, embedded data);
 * then its bytes are removed. Locks are leases in the database (DatabaseLocker), so any instance may
 * serve any request of an upload. Unfinished uploads expire DAM_TEMP_FILE_TTL_HOURS after creation, like
 * temp files, and `purge-tus-uploads` removes them.
 */
@Injectable()
export class TusService implements OnApplicationShutdown {
  private readonly logger = new Logger('Tus');
  private runtime: Promise<TusRuntime> | undefined;
  private readonly states = new WeakMap<Request, RequestState>();

  constructor(
    private readonly config: AppConfig,
    private readonly urls: UrlService,
    private readonly storage: ObjectStorage,
    private readonly uploads: TusUploadsRepository,
    private readonly content: AssetUploadsService,
  ) {}

  /** Whether tus was loaded (by a tus request or a purge that had uploads to remove). */
  get loaded(): boolean {
    return this.runtime !== undefined;
  }

  async handle(actor: ActorUser, request: ExpressRequest, response: ExpressResponse): Promise<void> {
    const method = request.method.toUpperCase();
    const id = request.params.id as string | undefined;
    if (id !== undefined) await this.usableOrThrow(actor, id);
    const state: RequestState = { actor };
    if (method === 'POST') {
      state.target = uploadTargetOrThrow(parseUploadMetadata(header(request, 'upload-metadata')));
      await this.content.assertContentWritable(actor, state.target.assetId);
    }
    const checksum = parseUploadChecksum(header(request, 'upload-checksum'));
    const { server } = await this.loadRuntime();
    const body = await requestBody(request, method, checksum);
    try {
      if (body === 'mismatch') {
        response
          .status(460)
          .setHeader('Tus-Resumable', '1.0.0')
          .type('text/plain')
          .send(`the body does not match its Upload-Checksum (${checksum?.algorithm})`);
        return;
      }
      const webRequest = new Request(this.internalUrl(request), {
        method,
        headers: webHeaders(request),
        body: body?.stream,
        duplex: 'half',
      } as RequestInit);
      this.states.set(webRequest, state);
      const answer = await server.handleWeb(webRequest);
      // Terminated: the store removed the bytes; the row (and any leftover part) go too.
      if (method === 'DELETE' && answer.status === 204 && id !== undefined) state.refused = id;
      // Before the answer, so that a client that got it finds nothing left: tus is done with the upload.
      if (state.completed !== undefined) await this.removeQuietly(state.completed);
      if (state.refused !== undefined) await this.removeQuietly(state.refused);
      await send(answer, method, request, response);
    } finally {
      if (body !== undefined && body !== 'mismatch') await body.cleanup();
    }
  }

  /**
   * Removes an upload: its bytes (aborting an S3 multipart upload) and its row. Used after completion,
   * by termination's follow-up, and by the purge.
   */
  async remove(id: string): Promise<void> {
    const { store } = await this.loadRuntime();
    try {
      await store.remove(`${STORE_PREFIX}${id}`);
    } catch {
      // Already gone, or a finished S3 upload (no multipart upload left to abort): the prefix below.
    }
    await this.storage.deletePrefix(`${STORE_PREFIX}${id}`);
    await this.uploads.delete(id);
  }

  /** Which of `keys` (under `tus/`) belong to an upload that still has its row (the orphan sweep asks). */
  async referencedKeys(keys: string[]): Promise<Set<string>> {
    const existing = await this.uploads.existingIds(keys.map(uploadIdOfKey).filter(isUploadId));
    return new Set(keys.filter((key) => existing.has(uploadIdOfKey(key))));
  }

  /** The uploads `purge` would remove at `now` (the oldest `limit`): the job's dry run. */
  removableIds(now: Date, limit: number): Promise<string[]> {
    return this.uploads.findRemovable(this.cutoff(now), limit);
  }

  /**
   * Removes uploads created more than DAM_TEMP_FILE_TTL_HOURS before `now` (tus answers 410 for them
   * already) and finished ones a crash left, then `tus/` objects whose row is gone. Returns how many
   * uploads were removed.
   */
  async purge(now: Date, hooks: PurgeHooks = {}): Promise<number> {
    let removed = 0;
    for (;;) {
      await hooks.checkpoint?.();
      const ids = await this.uploads.findRemovable(this.cutoff(now), PURGE_BATCH);
      for (const id of ids) {
        await this.remove(id);
        removed += 1;
        hooks.removed?.(id);
      }
      if (ids.length < PURGE_BATCH) break;
    }
    // Rows are written before any object: objects without a row are leftovers of removed uploads.
    const seen = new Set<string>();
    for await (const key of this.storage.list(STORE_PREFIX)) {
      const id = uploadIdOfKey(key);
      if (isUploadId(id)) seen.add(id);
    }
    const existing = await this.uploads.existingIds([...seen]);
    for (const id of seen) {
      if (!existing.has(id)) await this.storage.deletePrefix(`${STORE_PREFIX}${id}`);
    }
    return removed;
  }

  private cutoff(now: Date): Date {
    return new Date(now.getTime() - this.config.tempFileTtlHours * 3_600_000);
  }

  async onApplicationShutdown(): Promise<void> {
    const runtime = await this.runtime?.catch(() => undefined);
    runtime?.server.removeAllListeners();
  }

  private async usableOrThrow(actor: ActorUser, id: string): Promise<TusUploadEntity> {
    const upload = isUploadId(id) ? await this.uploads.findById(id) : null;
    if (upload === null || !isSelfOrAdmin(actor, upload.createdByUserId)) {
      throw new TusUploadNotFound(id);
    }
    return upload;
  }

  private loadRuntime(): Promise<TusRuntime> {
    this.runtime ??= this.createRuntime().catch((error: unknown) => {
      this.runtime = undefined;
      throw error;
    });
    return this.runtime;
  }

  private async createRuntime(): Promise<TusRuntime> {
    const expirationMs = Math.round(this.config.tempFileTtlHours * 3_600_000);
    const minio = this.config.minio;
    const store = await createTusStore(
      this.config.storageDriver === 'minio' && minio !== undefined
        ? { kind: 's3', minio, expirationMs }
        : { kind: 'fs', directory: path.dirname(this.fsPathOf('tus')), expirationMs },
    );
    const server = await createTusServer(store, {
      path: '/rest/tus',
      locker: new DatabaseLocker(this.uploads),
      // No CORS: the API serves no other origin.
      allowedOrigins: [],
      // Advertised as Tus-Max-Size; a larger Upload-Length (or more bytes) answers 413.
      maxSize: this.config.maxUploadBytes,
      namingFunction: () => `${STORE_PREFIX}${randomBytes(16).toString('hex')}`,
      generateUrl: (_request, { id }) => this.urls.rest('tus', id.slice(STORE_PREFIX.length)),
      getFileIdFromRequest: (_request, last) =>
        last !== undefined && isUploadId(last) ? `${STORE_PREFIX}${last}` : undefined,
      onUploadCreate: async (request, upload) => {
        await this.created(request, upload);
        return {};
      },
      onUploadFinish: (request, upload) => this.finished(request, upload, store),
      onResponseError: (_request, error) => tusErrorAnswer(error, this.logger),
    });
    this.logger.log(
      `tus loaded (${this.config.storageDriver === 'minio' ? '@tus/s3-store' : '@tus/file-store'})`,
    );
    return { server, store };
  }

  /** The fs store's file for `key` (tus files live beside the objects, under `tus/`). */
  private fsPathOf(key: string): string {
    const local = this.storage.localPath(key);
    if (local === undefined) throw new Error('the fs store keeps no local files');
    return local;
  }

  /** Before the store creates it: the row that names its asset and creator (the purge finds it there). */
  private async created(request: Request, upload: Upload): Promise<void> {
    const state = this.stateOf(request);
    if (state.target === undefined) throw new Error('a creation without its target');
    const entity = Object.assign(new TusUploadEntity(), {
      id: upload.id.slice(STORE_PREFIX.length),
      assetId: state.target.assetId,
      createdByUserId: state.actor.id,
      createdAt: new Date(),
      completedAt: null,
    });
    await this.uploads.insert(entity);
  }

  /** The last byte arrived: the upload becomes the asset's content, as a content PUT by this actor would. */
  private async finished(
    request: Request,
    upload: Upload,
    store: ReadableDataStore,
  ): Promise<{ headers: Record<string, string> }> {
    const state = this.stateOf(request);
    const id = upload.id.slice(STORE_PREFIX.length);
    const row = await this.uploads.findById(id);
    if (row === null) throw new TusUploadNotFound(id);
    try {
      const target = uploadTargetOrThrow(metadataMap(upload.metadata));
      const stored = await this.content.replaceFrom(state.actor, row.assetId, {
        source: async (key) => this.storage.put(key, await store.read(upload.id)),
        filename: target.filename ?? DEFAULT_FILENAME,
        asNewVersion: target.asNewVersion,
        extractEmbeddedData: target.extractEmbeddedData,
      });
      await this.uploads.markCompleted(id, new Date());
      state.completed = id;
      return {
        headers: {
          'Repr-Digest': sha256DigestField(stored.sha256),
          'Content-Location': this.urls.rest('assets', row.assetId),
          ...(stored.duplicateOf.length > 0 ? { 'X-Duplicate-Of': stored.duplicateOf.join(', ') } : {}),
        },
      };
    } catch (error) {
      // The asset refused it (permission, checkout, gone): the upload can never become its content.
      if (error instanceof DomainError && statusOf(error.kind) < 500) state.refused = id;
      throw error;
    }
  }

  private stateOf(request: Request): RequestState {
    const state = this.states.get(request);
    if (state === undefined) throw new Error('a tus hook for a request TusService did not make');
    return state;
  }

  private async removeQuietly(id: string): Promise<void> {
    try {
      await this.remove(id);
    } catch (error) {
      this.logger.warn(
        `could not remove tus upload ${id} (left for the purge): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /** The URL tus parses: only its path matters (the id is its last segment). */
  private internalUrl(request: ExpressRequest): string {
    return `http://tus.internal${request.path}`;
  }
}
