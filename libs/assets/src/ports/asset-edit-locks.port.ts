import { ActorUser } from '@dam/access';

/**
 * Asked before an asset's metadata or content changes. The checkout area implements it (an asset
 * checked out to someone else is locked for others), so the assets area need not know checkouts.
 */
export abstract class AssetEditLocks {
  /** Throws AssetCheckedOut (409) when the asset is checked out to someone other than a non-admin actor. */
  abstract assertEditableBy(actor: ActorUser, assetId: number): Promise<void>;
}
