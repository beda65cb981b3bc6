import { ActorRef, actorRef, EventType } from '@dam/events';
import { UrlService } from '@dam/http';

/** The payload of every `asset.*` event (docs/events.md): the asset and who changed it. */
export interface AssetEventData extends ActorRef {
  assetId: number;
  assetUrl: string;
}

/** The payload of an `asset.*` event about `assetId`, changed by `actorId` (null from a job). */
export function assetEventData(urls: UrlService, assetId: number, actorId?: number | null): AssetEventData {
  return {
    assetId,
    assetUrl: urls.configured().rest('assets', assetId),
    ...actorRef(urls.configured(), actorId),
  };
}

/** A new asset (submitted or not). */
export class AssetCreated extends EventType<AssetEventData>('asset.created') {}

/** Its attributes, levels, categories or parents changed (applied, or stored for approval), or it was unarchived. */
export class AssetUpdated extends EventType<AssetEventData>('asset.updated') {}

/** Submitted (`submitted: true`); it is live unless it awaits upload approval. */
export class AssetSubmitted extends EventType<AssetEventData>('asset.submitted') {}

/** Approved: its upload and pending edits (and pending content) apply. */
export class AssetApproved extends EventType<AssetEventData>('asset.approved') {}

/**
 * Turned down: an asset awaiting upload approval deleted by someone other than its uploader (the API
 * has no separate reject operation). `asset.deleted` follows.
 */
export class AssetRejected extends EventType<AssetEventData>('asset.rejected') {}

/** Archived (`archived: true`); unarchiving is an `asset.updated`. */
export class AssetArchived extends EventType<AssetEventData>('asset.archived') {}

/** Deleted, with its values, placements and files. */
export class AssetDeleted extends EventType<AssetEventData>('asset.deleted') {}

/** Deleted into the trash (after `asset.deleted`): restorable by an admin until it is purged. */
export class AssetTrashed extends EventType<AssetEventData>('asset.trashed') {}

/** Brought back from the trash with its id, values, placements, versions and memberships. */
export class AssetRestored extends EventType<AssetEventData>('asset.restored') {}

/** Purged from the trash (by an admin or the `purge-trash` job): its files are deleted. */
export class AssetPurged extends EventType<AssetEventData>('asset.purged') {}
