import { Injectable } from '@nestjs/common';
import { ActorUser } from '@dam/access';
import { DomainError } from '@dam/errors';
import { ObjectStorage } from '@dam/storage';
import { AssetDownloadsService } from './asset-downloads.service';
import { AssetFilesRepository } from './asset-files.repository';

/** What a download of an asset hands out: its original file, or one of the JPEG renditions. */
export const CONTENT_RENDITIONS = ['original', 'display', 'preview'] as const;
export type ContentRendition = (typeof CONTENT_RENDITIONS)[number];

/** Bytes of one asset an actor may download now: where they are and how they are offered. */
export interface DownloadableContent {
  assetId: number;
  filename: string;
  size: number;
  contentType: string;
  storageKey: string;
}

/**
 * Content of many assets as one actor may download it, for areas that hand out several at once (shares,
 * a lightbox's ZIP). The rule is the single asset download's (AssetDownloadsService): visible, `download`
 * on one of its levels, not archived.
 */
@Injectable()
export class DownloadableContents {
  constructor(
    private readonly downloads: AssetDownloadsService,
    private readonly files: AssetFilesRepository,
    private readonly storage: ObjectStorage,
  ) {}

  /** Throws as a download of the first refused asset would: 404 unseen, 403 without download, 400 archived. */
  async assertDownloadable(actor: ActorUser, assetIds: readonly number[]): Promise<void> {
    for (const assetId of assetIds) await this.downloads.downloadableOrThrow(actor, assetId);
  }

  /**
   * The content of each of `assetIds` the actor may download now, in their order; an asset gone,
   * trashed, archived, refused, without content (or without that rendition yet) is left out.
   */
  async downloadable(
    actor: ActorUser,
    assetIds: readonly number[],
    rendition: ContentRendition,
  ): Promise<DownloadableContent[]> {
    const found = await Promise.all(
      assetIds.map((assetId) => this.contentIfAllowed(actor, assetId, rendition)),
    );
    return found.filter((content): content is DownloadableContent => content !== undefined);
  }

  private async contentIfAllowed(
    actor: ActorUser,
    assetId: number,
    rendition: ContentRendition,
  ): Promise<DownloadableContent | undefined> {
    try {
      await this.downloads.downloadableOrThrow(actor, assetId);
    } catch (error) {
      if (error instanceof DomainError) return undefined;
      throw error;
    }
    const file = await this.files.current(assetId);
    if (file === null) return undefined;
    if (rendition === 'original') {
      const { originalFilename: filename, size, contentType, storageKey } = file;
      return { assetId, filename, size, contentType, storageKey };
    }
    const made = await this.files.rendition(assetId, rendition);
    const stat = made === null ? undefined : await this.storage.stat(made.storageKey);
    if (made === null || stat === undefined) return undefined;
    return {
      assetId,
      filename: `${file.originalFilename.replace(/\.[^.]*$/, '')}.jpg`,
      size: stat.size,
      contentType: made.contentType,
      storageKey: made.storageKey,
    };
  }
}
