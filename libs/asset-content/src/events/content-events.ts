import { ActorRef, actorRef, EventType } from '@dam/events';
import { UrlService } from '@dam/http';

/** The payload of `asset.content-replaced` (docs/events.md). */
export interface AssetContentEventData extends ActorRef {
  assetId: number;
  assetUrl: string;
  /** `GET` it for the bytes (an authenticated request). */
  contentUrl: string;
}

/**
 * The asset's current file changed: a direct upload, or an approved pending one (the actor is then the
 * file's uploader; `asset.approved` names the approver). A file stored for approval emits nothing until
 * it is approved.
 */
export class AssetContentReplaced extends EventType<AssetContentEventData>('asset.content-replaced') {
  static of(urls: UrlService, assetId: number, actorId?: number | null): AssetContentReplaced {
    return new AssetContentReplaced({
      assetId,
      assetUrl: urls.configured().rest('assets', assetId),
      contentUrl: urls.configured().rest('assets', assetId, 'content'),
      ...actorRef(urls.configured(), actorId),
    });
  }
}

/** The payload of `asset.version.restored`: which earlier version became the current content again. */
export interface AssetVersionRestoredData extends AssetContentEventData {
  /** The version whose file was restored; the new current version follows the last one. */
  restoredVersion: number;
}

/**
 * `POST /rest/assets/{id}/versions/{version}/restore` made that version's file the current content (as a
 * new version; `asset.content-replaced` comes with it). Restored under edit-with-approval, the file is
 * pending like any upload and this event is not emitted.
 */
export class AssetVersionRestored extends EventType<AssetVersionRestoredData>('asset.version.restored') {
  static of(
    urls: UrlService,
    assetId: number,
    restoredVersion: number,
    actorId?: number | null,
  ): AssetVersionRestored {
    return new AssetVersionRestored({
      ...AssetContentReplaced.of(urls, assetId, actorId).data,
      restoredVersion,
    });
  }
}

/** The payload of `asset.downloaded`. */
export interface AssetDownloadedData extends ActorRef {
  assetId: number;
  assetUrl: string;
  /** The file handed out: the current content's URL, or a version's. */
  contentUrl: string;
}

/**
 * The asset's original file was handed out (the 303 or the signed URL of `content` or of a version's
 * content, a signed URL's GET included). Audit only (`recordUnpublished`): no webhook sees it.
 */
export class AssetDownloaded extends EventType<AssetDownloadedData>('asset.downloaded') {
  static of(urls: UrlService, assetId: number, actorId: number, version?: number): AssetDownloaded {
    const asset = urls.configured().rest('assets', assetId);
    return new AssetDownloaded({
      assetId,
      assetUrl: asset,
      contentUrl: version === undefined ? `${asset}/content` : `${asset}/versions/${version}/content`,
      ...actorRef(urls.configured(), actorId),
    });
  }
}
