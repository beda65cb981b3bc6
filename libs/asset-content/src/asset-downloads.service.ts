import { Injectable } from '@nestjs/common';
import { ActorUser } from '@dam/access';
import { AssetReader, editOutcome, VisibleAsset } from '@dam/assets';
import { AppConfig } from '@dam/core';
import { InvalidInput, NotPermitted, UnknownResource } from '@dam/errors';
import { DomainEvents } from '@dam/events';
import { UrlService } from '@dam/http';
import { ObjectStorage } from '@dam/storage';
import { AssetFilesRepository } from './asset-files.repository';
import { AssetFileEntity } from './entities/asset-file.entity';
import { AssetDownloaded } from './events/content-events';

/** One entry of `GET /rest/assets/{id}/versions` (docs/api-decisions.md). */
export interface AssetVersionRepresentation {
  version: number;
  current: boolean;
  originalFilename: string;
  fileSize: number;
  contentType: string;
  dateAdded: string;
  contentUrl: string;
}

/**
 * Reading content (spec 4.5.5-6): visibility decides existence (404), `download` on any of the asset's
 * levels decides access (403), an archived asset answers 400, an asset without a file 404.
 */
@Injectable()
export class AssetDownloadsService {
  constructor(
    private readonly files: AssetFilesRepository,
    private readonly reader: AssetReader,
    private readonly storage: ObjectStorage,
    private readonly urls: UrlService,
    private readonly config: AppConfig,
    private readonly events: DomainEvents,
  ) {}

  /** The signed URL of the current file; the hand-out is an `asset.downloaded` entry of the audit log. */
  async contentUrl(actor: ActorUser, id: number): Promise<string> {
    await this.downloadableOrThrow(actor, id);
    const url = await this.signedUrl(await this.currentOrThrow(id));
    await this.events.recordUnpublished(AssetDownloaded.of(this.urls, id, actor.id));
    return url;
  }

  async versionUrl(actor: ActorUser, id: number, version: number): Promise<string> {
    await this.downloadableOrThrow(actor, id);
    const file = await this.files.version(id, version);
    if (file === null) throw new UnknownResource(`asset ${id} has no version ${version}`);
    const url = await this.signedUrl(file);
    await this.events.recordUnpublished(AssetDownloaded.of(this.urls, id, actor.id, version));
    return url;
  }

  async versions(actor: ActorUser, id: number): Promise<AssetVersionRepresentation[]> {
    await this.reader.visibleOrThrow(actor, id);
    const files = await this.files.versions(id);
    return files.map((file) => ({
      version: file.version,
      current: file.isCurrent,
      originalFilename: file.originalFilename,
      fileSize: file.size,
      contentType: file.contentType,
      dateAdded: file.createdAt.toISOString(),
      contentUrl: this.urls.rest('assets', id, 'versions', file.version, 'content'),
    }));
  }

  /**
   * There are no precursor files in this design (uploads are stored before the PUT answers), so there is
   * never a save status to report: 404 for every asset the actor could upload to, 403 for the others.
   */
  async saveStatus(actor: ActorUser, id: number): Promise<never> {
    const { placed, grants } = await this.reader.visibleOrThrow(actor, id);
    if (editOutcome(grants, placed.accessLevelIds) === 'refused' && placed.asset.addedByUserId !== actor.id) {
      throw new NotPermitted('you need edit permission on every access level of the asset');
    }
    throw new UnknownResource(`asset ${id} has no file being saved`);
  }

  /** Visible, `download` on one of its levels, not archived. */
  async downloadableOrThrow(actor: ActorUser, id: number): Promise<VisibleAsset> {
    const visible = await this.reader.visibleOrThrow(actor, id);
    const { placed, grants } = visible;
    if (!grants.onAny(placed.accessLevelIds, 'download')) {
      throw new NotPermitted('you need download permission on one of the access levels of the asset');
    }
    if (placed.asset.archived) throw new InvalidInput(`asset ${id} is archived`);
    return visible;
  }

  async currentOrThrow(id: number): Promise<AssetFileEntity> {
    const file = await this.files.current(id);
    if (file === null) throw new UnknownResource(`asset ${id} has no content`);
    return file;
  }

  private signedUrl(file: AssetFileEntity): Promise<string> {
    return this.storage.signedGetUrl(file.storageKey, {
      expirySeconds: this.config.signedUrlTtlSeconds,
      filename: file.originalFilename,
      contentType: file.contentType,
    });
  }
}
