import { ActorRef, actorRef, EventType } from '@dam/events';
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

export class LightboxCreated extends EventType<LightboxEventData>('lightbox.created') {}

/** Its name or description changed. */
export class LightboxUpdated extends EventType<LightboxEventData>('lightbox.updated') {}

export class LightboxDeleted extends EventType<LightboxEventData>('lightbox.deleted') {}

/** An asset was put in the lightbox (not emitted when it was there already). */
export class LightboxAssetAdded extends EventType<LightboxAssetEventData>('lightbox.asset-added') {}

export class LightboxAssetRemoved extends EventType<LightboxAssetEventData>('lightbox.asset-removed') {}
