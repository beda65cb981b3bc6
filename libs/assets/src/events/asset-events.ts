import { ActorRef, actorRef, DomainEvent } from '@dam/events';
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
export class AssetCreated extends DomainEvent<AssetEventData> {
  static readonly TYPE = 'asset.created';
  readonly type = AssetCreated.TYPE;
}

/** Its attributes, levels, categories or parents changed (applied, or stored for approval), or it was unarchived. */
export class AssetUpdated extends DomainEvent<AssetEventData> {
  static readonly TYPE = 'asset.updated';
  readonly type = AssetUpdated.TYPE;
}

/** Submitted (`submitted: true`); it is live unless it awaits upload approval. */
export class AssetSubmitted extends DomainEvent<AssetEventData> {
  static readonly TYPE = 'asset.submitted';
  readonly type = AssetSubmitted.TYPE;
}

/** Approved: its upload and pending edits (and pending content) apply. */
export class AssetApproved extends DomainEvent<AssetEventData> {
  static readonly TYPE = 'asset.approved';
  readonly type = AssetApproved.TYPE;
}

/**
 * Turned down: an asset awaiting upload approval deleted by someone other than its uploader (the API
 * has no separate reject operation). `asset.deleted` follows.
 */
export class AssetRejected extends DomainEvent<AssetEventData> {
  static readonly TYPE = 'asset.rejected';
  readonly type = AssetRejected.TYPE;
}

/** Archived (`archived: true`); unarchiving is an `asset.updated`. */
export class AssetArchived extends DomainEvent<AssetEventData> {
  static readonly TYPE = 'asset.archived';
  readonly type = AssetArchived.TYPE;
}

/** Deleted, with its values, placements and files. */
export class AssetDeleted extends DomainEvent<AssetEventData> {
  static readonly TYPE = 'asset.deleted';
  readonly type = AssetDeleted.TYPE;
}

/** Deleted into the trash (after `asset.deleted`): restorable by an admin until it is purged. */
export class AssetTrashed extends DomainEvent<AssetEventData> {
  static readonly TYPE = 'asset.trashed';
  readonly type = AssetTrashed.TYPE;
}

/** Brought back from the trash with its id, values, placements, versions and memberships. */
export class AssetRestored extends DomainEvent<AssetEventData> {
  static readonly TYPE = 'asset.restored';
  readonly type = AssetRestored.TYPE;
}

/** Purged from the trash (by an admin or the `purge-trash` job): its files are deleted. */
export class AssetPurged extends DomainEvent<AssetEventData> {
  static readonly TYPE = 'asset.purged';
  readonly type = AssetPurged.TYPE;
}
