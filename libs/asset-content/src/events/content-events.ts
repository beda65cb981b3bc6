import { ActorRef, actorRef, DomainEvent } from '@dam/events';
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
export class AssetContentReplaced extends DomainEvent<AssetContentEventData> {
  static readonly TYPE = 'asset.content-replaced';
  readonly type = AssetContentReplaced.TYPE;

  static of(urls: UrlService, assetId: number, actorId?: number | null): AssetContentReplaced {
    return new AssetContentReplaced({
      assetId,
      assetUrl: urls.rest('assets', assetId),
      contentUrl: urls.rest('assets', assetId, 'content'),
      ...actorRef(urls, actorId),
    });
  }
}
