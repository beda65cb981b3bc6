import { ActorRef, actorRef, EventType } from '@dam/events';
import { UrlService } from '@dam/http';

/** The payload of `asset.checked-out` and `asset.checked-in` (docs/events.md). */
export interface CheckoutEventData extends ActorRef {
  assetId: number;
  assetUrl: string;
  /** Who holds (checked-out) or held (checked-in) the checkout. */
  holderId: number;
  holderUrl: string;
}

export function checkoutEventData(
  urls: UrlService,
  assetId: number,
  holderId: number,
  actorId: number,
): CheckoutEventData {
  return {
    assetId,
    assetUrl: urls.configured().rest('assets', assetId),
    holderId,
    holderUrl: urls.configured().rest('users', holderId),
    ...actorRef(urls.configured(), actorId),
  };
}

/** Checked out to `holderId` (by the actor: the holder, or an admin for someone else). */
export class AssetCheckedOutEvent extends EventType<CheckoutEventData>('asset.checked-out') {}

/** Checked in: `holderId` no longer holds it. */
export class AssetCheckedInEvent extends EventType<CheckoutEventData>('asset.checked-in') {}
