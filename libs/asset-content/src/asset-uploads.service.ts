import { Injectable, OnModuleInit } from '@nestjs/common';
import { AccessGrants, ActorUser, Viewer } from '@dam/access';
import {
  AfterApproval,
  AssetApprovalSteps,
  AssetEditLocks,
  AssetNotFound,
  AssetReader,
  editOutcome,
  isLive,
  PlacedAsset,
  uploadOutcome,
} from '@dam/assets';
import { AttributesCatalog, SystemAttribute } from '@dam/attributes';
import { AppConfig } from '@dam/core';
import { InvalidInput, NotPermitted, UnknownResource } from '@dam/errors';
import { DomainEvents } from '@dam/events';
import {
  DigestCheck,
  parseBoolean,
  parseDigestField,
  sizeLimited,
  uploadFilenameOrThrow,
  UploadTooLarge,
  UrlService,
} from '@dam/http';
import { LanguageService } from '@dam/i18n';
import { ObjectDeletions, ObjectStorage, safeFilename, StoredObject } from '@dam/storage';
import { TempChunkedFilesService } from '@dam/temp-chunked-files';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { EntityManager } from 'typeorm';
import { AssetContentReplaced, AssetVersionRestored } from './events/content-events';
import { AssetFilesRepository, FileValue, NewFile, SwitchFacts, Switched } from './asset-files.repository';
import { ContentObjects } from './content-objects';
import { DuplicateContent } from './duplicate-content';
import { assetTypeOf, contentTypeOf, SNIFF_BYTES } from './content-types';
import { EmbeddedDataReader } from './embedded-data.reader';
import { AssetFileEntity } from './entities/asset-file.entity';
import { RenditionsService } from './renditions.service';

/** A content upload as it arrived (spec 4.5.7). */
export interface ContentUpload {
  body: Readable;
  contentType?: string;
  contentDisposition?: string;
  /** `Upload-As-New-Version` */
  asNewVersion?: string;
  /** `X-Copy-Temp-Chunked-File` */
  copyTempFile?: string;
  /** `extractEmbeddedData` */
  extractEmbeddedData?: unknown;
  /** `Repr-Digest` (RFC 9530): the SHA-256 the whole content must have. */
  reprDigest?: string | string[];
  /** `Content-Length`, when the client announced one: past DAM_MAX_UPLOAD_BYTES, 413 before any byte. */
  declaredLength?: number;
}

/** Where the bytes of an upload come from: the body, the chunks of a temp file, a finished tus upload. */
export type ContentSource = (key: string) => Promise<StoredObject>;

/** Content that arrived some other way (a finished tus upload), made the asset's content like a PUT. */
export interface ContentFrom {
  /** Writes the bytes under the key it is given. */
  source: ContentSource;
  /** As sent; made safe here. */
  filename: string;
  asNewVersion: boolean;
  extractEmbeddedData: boolean;
}

/** What was stored: the answer's `Repr-Digest`, and its `X-Duplicate-Of` when not empty. */
export interface StoredContent {
  sha256: string;
  size: number;
  /** URLs of other assets the uploader can see whose current content is these bytes (DAM_DUPLICATE_UPLOADS). */
  duplicateOf: string[];
}

type ContentMode = 'direct' | 'approval';

/** How the content may be written, and who asks (whose eyes the duplicate check looks through). */
interface Writable {
  mode: ContentMode;
  viewer: Viewer;
}

/**
 * Content uploads (DESIGN §7): the bytes are written under a fresh key first, then one transaction makes
 * them the asset's current file (or its pending one), updates the file attributes and `type`, and queues
 * the replaced objects in ObjectDeletions, which deletes them after the response (and retries a failed
 * delete later). A failed upload deletes its partial object and changes nothing.
 */
@Injectable()
export class AssetUploadsService implements OnModuleInit {
  constructor(
    private readonly files: AssetFilesRepository,
    private readonly reader: AssetReader,
    private readonly locks: AssetEditLocks,
    private readonly catalog: AttributesCatalog,
    private readonly languages: LanguageService,
    private readonly storage: ObjectStorage,
    private readonly objects: ContentObjects,
    private readonly embedded: EmbeddedDataReader,
    private readonly renditions: RenditionsService,
    private readonly approvalSteps: AssetApprovalSteps,
    private readonly tempFiles: TempChunkedFilesService,
    private readonly deletions: ObjectDeletions,
    private readonly events: DomainEvents,
    private readonly urls: UrlService,
    private readonly config: AppConfig,
    private readonly duplicates: DuplicateContent,
  ) {}

  onModuleInit(): void {
    this.approvalSteps.register((manager, assetId) => this.approvePendingFile(manager, assetId));
  }

  async upload(actor: ActorUser, id: number, upload: ContentUpload): Promise<StoredContent> {
    const filename = safeFilename(uploadFilenameOrThrow(upload.contentType, upload.contentDisposition));
    const asNewVersion = parseBoolean(upload.asNewVersion, 'the Upload-As-New-Version header') ?? false;
    const extract = parseBoolean(upload.extractEmbeddedData, 'extractEmbeddedData') ?? false;
    const digests = new DigestCheck(parseDigestField(upload.reprDigest, 'Repr-Digest', ['sha-256']) ?? []);
    const writable = await this.contentModeOrThrow(actor, id);
    const max = this.config.maxUploadBytes;
    if (upload.copyTempFile === undefined && (upload.declaredLength ?? 0) > max)
      throw new UploadTooLarge(max);
    const source = await this.sourceOf(actor, upload);
    return this.replaceContent(actor, id, writable.mode, {
      filename,
      asNewVersion,
      extract,
      digests,
      source,
      duplicatesSeenBy: writable.viewer,
    });
  }

  /**
   * Throws what a content PUT by `actor` on asset `id` would throw before reading any byte: 404 when it is
   * not visible, 403 without the permission, 409 while someone else has it checked out. Asked when a
   * resumable upload is created, long before its bytes are all there.
   */
  async assertContentWritable(actor: ActorUser, id: number): Promise<void> {
    await this.contentModeOrThrow(actor, id);
  }

  /** Makes content that arrived another way (a finished tus upload) the asset's content, as a PUT does. */
  async replaceFrom(actor: ActorUser, id: number, content: ContentFrom): Promise<StoredContent> {
    const { mode, viewer } = await this.contentModeOrThrow(actor, id);
    return this.replaceContent(actor, id, mode, {
      filename: safeFilename(content.filename),
      asNewVersion: content.asNewVersion,
      extract: content.extractEmbeddedData,
      digests: new DigestCheck([]),
      source: content.source,
      duplicatesSeenBy: viewer,
    });
  }

  /**
   * `POST .../versions/{version}/restore`: a copy of that version's file becomes the current content as a
   * new version, through the PUT's own path (404, 403, 409 for a checkout, pending under
   * edit-with-approval, renditions, events). 404 for a version the asset does not have.
   */
  async restoreVersion(actor: ActorUser, id: number, version: number): Promise<void> {
    const { mode } = await this.contentModeOrThrow(actor, id);
    const file = await this.files.version(id, version);
    if (file === null) throw new UnknownResource(`asset ${id} has no version ${version}`);
    await this.replaceContent(actor, id, mode, {
      filename: file.originalFilename,
      asNewVersion: true,
      extract: false,
      digests: new DigestCheck([]),
      source: (key) => this.storage.concatenate([file.storageKey], key),
      restoredVersion: version,
    });
  }

  private async contentModeOrThrow(actor: ActorUser, id: number): Promise<Writable> {
    const { placed, grants } = await this.reader.visibleOrThrow(actor, id);
    const mode = contentModeOrThrow(actor, grants, placed);
    await this.locks.assertEditableBy(actor, id);
    return { mode, viewer: { actor, grants } };
  }

  /**
   * Writes the bytes under a fresh key, checks them against the announced digests (a mismatch changes
   * nothing: 400) and, for an upload (`duplicatesSeenBy`), looks for other assets with the same current
   * content (DAM_DUPLICATE_UPLOADS: `refuse` changes nothing, 409), then switches the asset to them.
   */
  private async replaceContent(
    actor: ActorUser,
    id: number,
    mode: ContentMode,
    content: {
      filename: string;
      asNewVersion: boolean;
      extract: boolean;
      digests: DigestCheck;
      source: ContentSource;
      /** Set by restoreVersion: the version whose file this is. */
      restoredVersion?: number;
      /** An upload: the duplicate check looks through these eyes (a version restore does not look). */
      duplicatesSeenBy?: Viewer;
    },
  ): Promise<StoredContent> {
    const { filename, asNewVersion, extract, source } = content;
    const key = `assets/${id}/${randomUUID()}`;
    const stored = await this.store(key, source);
    let switched: Switched;
    let contentType: string;
    let duplicateOf: string[] = [];
    try {
      content.digests.verify('the content', stored.sha256);
      if (content.duplicatesSeenBy !== undefined)
        duplicateOf = await this.duplicates.otherAssetsWith(content.duplicatesSeenBy, id, stored.sha256);
      const head = await this.objects.prefix(key, stored.size, SNIFF_BYTES);
      const file: NewFile = {
        storageKey: key,
        originalFilename: filename,
        contentType: contentTypeOf(filename, head),
        size: stored.size,
        sha256: stored.sha256,
        uploadedByUserId: actor.id,
      };
      contentType = file.contentType;
      const committed =
        mode === 'approval'
          ? await this.files.storePending(id, file, asNewVersion)
          : await this.files.switchTo(
              id,
              file,
              asNewVersion,
              await this.factsOf(
                file,
                extract ? await this.embedded.valuesOf(key, stored.size, file.contentType) : [],
              ),
              (manager) =>
                this.events.record(
                  manager,
                  AssetContentReplaced.of(this.urls, id, actor.id),
                  ...(content.restoredVersion === undefined
                    ? []
                    : [AssetVersionRestored.of(this.urls, id, content.restoredVersion, actor.id)]),
                ),
            );
      if (committed === undefined) throw new AssetNotFound(id);
      switched = committed;
    } catch (error) {
      this.deletions.discardSoon([key]);
      throw error;
    }
    // Committed: the replaced objects were queued with the switch and go after the response.
    this.deletions.deleteSoon(switched.obsoleteKeys);
    if (mode === 'direct') await this.renditions.generateLater(id, switched.fileId, contentType);
    return { sha256: stored.sha256, size: stored.size, duplicateOf };
  }

  /** The chunks of the temp file named by `X-Copy-Temp-Chunked-File` (which remains), else the body. */
  private async sourceOf(actor: ActorUser, upload: ContentUpload): Promise<ContentSource> {
    if (upload.copyTempFile === undefined) return (key) => this.fromBody(key, upload.body);
    const chunkKeys = await this.tempFiles.chunkKeysOrThrow(
      actor,
      this.tempFiles.parseUrlOrThrow(upload.copyTempFile, 'X-Copy-Temp-Chunked-File'),
    );
    if (chunkKeys.length === 0) throw new InvalidInput('the temp chunked file has no chunks');
    upload.body.resume();
    return (key) => this.storage.concatenate(chunkKeys, key);
  }

  /** The bytes under `key`, or nothing: a failed write leaves no partial object behind. */
  private async store(key: string, source: ContentSource): Promise<StoredObject> {
    try {
      return await source(key);
    } catch (error) {
      this.deletions.discardSoon([key]);
      throw error;
    }
  }

  /**
   * The body, cut off with 413 past DAM_MAX_UPLOAD_BYTES (a body without Content-Length, or a longer one
   * than announced); a client that gives up mid-body fails the stream too. Either way `store` discards
   * the partial object and no version is made.
   */
  private async fromBody(key: string, body: Readable): Promise<StoredObject> {
    const max = this.config.maxUploadBytes;
    const limited = sizeLimited(body, max, () => new UploadTooLarge(max));
    return this.storage.put(key, limited.stream, { contentType: 'application/octet-stream' });
  }

  /** `type`, original filename and file size, plus any values read from embedded data. */
  private async factsOf(
    file: Pick<NewFile, 'contentType' | 'originalFilename' | 'size'>,
    extra: FileValue[],
  ): Promise<SwitchFacts> {
    const language = this.languages.readLanguage();
    const [name, size] = await Promise.all([
      this.catalog.byStaticName(SystemAttribute.OriginalFilename, language),
      this.catalog.byStaticName(SystemAttribute.FileSize, language),
    ]);
    const values: FileValue[] = extra.filter(
      (value) => value.attributeId !== name?.id && value.attributeId !== size?.id,
    );
    if (name !== undefined) values.push({ attributeId: name.id, value: file.originalFilename });
    if (size !== undefined) values.push({ attributeId: size.id, value: String(file.size) });
    return { assetType: assetTypeOf(file.contentType), values };
  }

  /** Approval step: the pending file becomes the current one. */
  private async approvePendingFile(
    manager: EntityManager,
    assetId: number,
  ): Promise<AfterApproval | undefined> {
    const pending: AssetFileEntity | null = await this.files.pending(assetId, manager);
    if (pending === null) return undefined;
    const switched = await this.files.promotePending(manager, pending, await this.factsOf(pending, []));
    await this.events.record(manager, AssetContentReplaced.of(this.urls, assetId, pending.uploadedByUserId));
    return async () => {
      this.deletions.deleteSoon(switched.obsoleteKeys);
      await this.renditions.generateLater(assetId, switched.fileId, pending.contentType);
    };
  }
}

/**
 * Edit on every level replaces the content at once; edit-with-approval where edit is missing stores it
 * pending. The uploader of an asset that is not live yet may also upload under their upload permission.
 */
function contentModeOrThrow(
  actor: ActorUser,
  grants: AccessGrants,
  placed: PlacedAsset,
): 'direct' | 'approval' {
  const { asset, accessLevelIds } = placed;
  if (
    asset.addedByUserId === actor.id &&
    !isLive(asset) &&
    uploadOutcome(grants, accessLevelIds) !== 'refused'
  ) {
    return 'direct';
  }
  const outcome = editOutcome(grants, accessLevelIds);
  if (outcome === 'refused')
    throw new NotPermitted('you need edit permission on every access level of the asset');
  return outcome;
}
