import { ActorRef, actorRef, EventType } from '@dam/events';
import { UrlService } from '@dam/http';

/**
 * The payload of `share.created` and `share.revoked` (docs/events.md): ids and URLs only, never the
 * link's token nor its password.
 */
export interface ShareEventData extends ActorRef {
  shareId: number;
  shareUrl: string;
  ownerId: number;
  ownerUrl: string;
}

/** `share.downloaded`: a public download, by nobody known (actorId null); the one item, or all in a ZIP. */
export interface ShareDownloadEventData extends ShareEventData {
  zip: boolean;
  assetIds: number[];
  /** The item's asset, for the download of one item (absent for a ZIP). */
  assetId?: number;
  assetUrl?: string;
}

export function shareEventData(
  urls: UrlService,
  shareId: number,
  ownerId: number,
  actorId: number | null,
): ShareEventData {
  const configured = urls.configured();
  return {
    shareId,
    shareUrl: configured.rest('shares', shareId),
    ownerId,
    ownerUrl: configured.rest('users', ownerId),
    ...actorRef(configured, actorId),
  };
}

export class ShareCreated extends EventType<ShareEventData>('share.created') {}

export class ShareRevoked extends EventType<ShareEventData>('share.revoked') {}

export class ShareDownloaded extends EventType<ShareDownloadEventData>('share.downloaded') {}
