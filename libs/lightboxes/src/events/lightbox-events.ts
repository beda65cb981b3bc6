import { ActorRef, actorRef, DomainEvent } from '@dam/events';
import { UrlService } from '@dam/http';

/** The payload of `lightbox.created`, `.updated` and `.deleted` (docs/events.md). */
export interface LightboxEventData extends ActorRef {
  lightboxId: number;
  lightboxUrl: string;
  ownerId: number;
  ownerUrl: string;
}

/** The payload of `lightbox.asset-added` and `lightbox.asset-removed`. */
export interface LightboxAssetEventData extends LightboxEventData {
  assetId: number;
  assetUrl: string;
}

export function lightboxEventData(
  urls: UrlService,
  ownerId: number,
  lightboxId: number,
  actorId: number,
): LightboxEventData {
  return {
    lightboxId,
    lightboxUrl: urls.configured().rest('users', ownerId, 'lightboxes', lightboxId),
    ownerId,
    ownerUrl: urls.configured().rest('users', ownerId),
    ...actorRef(urls.configured(), actorId),
  };
}

export function lightboxAssetEventData(
  urls: UrlService,
  ownerId: number,
  lightboxId: number,
  assetId: number,
  actorId: number,
): LightboxAssetEventData {
  return {
    ...lightboxEventData(urls, ownerId, lightboxId, actorId),
    assetId,
    assetUrl: urls.configured().rest('assets', assetId),
  };
}

export class LightboxCreated extends DomainEvent<LightboxEventData> {
  static readonly TYPE = 'lightbox.created';
  readonly type = LightboxCreated.TYPE;
}

/** Its name or description changed. */
export class LightboxUpdated extends DomainEvent<LightboxEventData> {
  static readonly TYPE = 'lightbox.updated';
  readonly type = LightboxUpdated.TYPE;
}

export class LightboxDeleted extends DomainEvent<LightboxEventData> {
  static readonly TYPE = 'lightbox.deleted';
  readonly type = LightboxDeleted.TYPE;
}

/** An asset was put in the lightbox (not emitted when it was there already). */
export class LightboxAssetAdded extends DomainEvent<LightboxAssetEventData> {
  static readonly TYPE = 'lightbox.asset-added';
  readonly type = LightboxAssetAdded.TYPE;
}

export class LightboxAssetRemoved extends DomainEvent<LightboxAssetEventData> {
  static readonly TYPE = 'lightbox.asset-removed';
  readonly type = LightboxAssetRemoved.TYPE;
}
