import { Injectable } from '@nestjs/common';
import { LoginThrottle, PasswordHasher, UsersService } from '@dam/access';
import { ContentRendition, DownloadableContent, DownloadableContents } from '@dam/asset-content';
import { DomainEvents } from '@dam/events';
import { UrlService } from '@dam/http';
import { ObjectStorage } from '@dam/storage';
import type { Readable } from 'node:stream';
import { ShareDownloaded, shareEventData } from './events/share-events';
import { SharePasswordRequired, ShareUnavailable } from './share-errors';
import { isShareOpen, isShareTokenShaped, shareTokenHash } from './share-rules';
import { Share, SharesRepository } from './shares.repository';
import { ContentZips } from './zip/content-zips';
import { ZipOutput } from './zip/zip-stream';

/** How a public request presents itself: the link's token, the password header, the client's address. */
export interface ShareKey {
  token: string;
  password: string | undefined;
  address: string | undefined;
  /** A HEAD request: the answer's headers only, and no download counted. */
  headOnly?: boolean;
}

/** An item of an open share: its number in the share and the content as the creator may download it now. */
export interface OpenItem {
  position: number;
  content: DownloadableContent;
}

/** A share let in, with the items that are still there. */
export interface OpenShare {
  share: Share;
  items: OpenItem[];
}

/** One item's bytes. */
export interface ItemDownload {
  content: DownloadableContent;
  /** Undefined for a HEAD request. */
  stream: Readable | undefined;
}

/**
 * The public side of shares (no token): open the share (404 unless it exists, is not revoked, expired or
 * out of downloads; 401/429 for its password), list what is still there, download an item or all of
 * them as one ZIP. An item is there while its asset exists, is neither trashed nor archived and its
 * creator may still download it: checked on every request, through the creator's permissions now.
 */
@Injectable()
export class PublicSharesService {
  constructor(
    private readonly shares: SharesRepository,
    private readonly contents: DownloadableContents,
    private readonly users: UsersService,
    private readonly hasher: PasswordHasher,
    private readonly throttle: LoginThrottle,
    private readonly storage: ObjectStorage,
    private readonly zips: ContentZips,
    private readonly events: DomainEvents,
    private readonly urls: UrlService,
  ) {}

  /** The share and its items; reading it is not a download. */
  async open(key: ShareKey): Promise<OpenShare> {
    const share = isShareTokenShaped(key.token)
      ? await this.shares.findByTokenHash(shareTokenHash(key.token))
      : null;
    if (share === null || !isShareOpen(share, new Date())) throw new ShareUnavailable();
    if (share.passwordHash !== null) await this.checkPassword(share, key);
    const creator = await this.users.findActor(share.userId);
    if (creator === null) throw new ShareUnavailable();
    const items = await this.shares.itemsOf(share.id);
    const found = await this.contents.downloadable(
      creator,
      items.map((item) => item.assetId),
      share.rendition as ContentRendition,
    );
    const positions = new Map(items.map((item) => [item.assetId, item.position]));
    return {
      share,
      items: found.map((content) => ({ position: positions.get(content.assetId) ?? 0, content })),
    };
  }

  /** Counts a download of item `position` (404 when it is not there or the share ran out) and reads it. */
  async download(key: ShareKey, position: number): Promise<ItemDownload> {
    const { share, items } = await this.open(key);
    const item = items.find((candidate) => candidate.position === position);
    if (item === undefined) throw new ShareUnavailable();
    if (key.headOnly === true) return { content: item.content, stream: undefined };
    await this.countOrThrow(share, [item.content.assetId], false);
    return { content: item.content, stream: await this.storage.get(item.content.storageKey) };
  }

  /** Counts one download and streams every item that is there as one ZIP (for HEAD: its length only). */
  async zip(key: ShareKey): Promise<{ share: Share; zip: ZipOutput }> {
    const { share, items } = await this.open(key);
    if (items.length === 0) throw new ShareUnavailable();
    if (key.headOnly !== true) {
      await this.countOrThrow(
        share,
        items.map((item) => item.content.assetId),
        true,
      );
    }
    return { share, zip: await this.zips.zipOf(items.map((item) => item.content)) };
  }

  /** The password (one attempt of the share's throttle): 401 missing or wrong, 429 while locked. */
  private async checkPassword(share: Share, key: ShareKey): Promise<void> {
    if (key.password === undefined || key.password === '') throw new SharePasswordRequired(false);
    const password = key.password;
    const right = await this.throttle.check({ kind: 'share', name: String(share.id) }, key.address, () =>
      this.hasher.verify(password, share.passwordHash),
    );
    if (!right) throw new SharePasswordRequired(true);
  }

  private async countOrThrow(share: Share, assetIds: number[], zip: boolean): Promise<void> {
    const single = zip
      ? {}
      : { assetId: assetIds[0], assetUrl: this.urls.configured().rest('assets', assetIds[0]) };
    const counted = await this.shares.countDownload(share.id, (manager) =>
      this.events.record(
        manager,
        new ShareDownloaded({
          ...shareEventData(this.urls, share.id, share.userId, null),
          zip,
          assetIds,
          ...single,
        }),
      ),
    );
    if (!counted) throw new ShareUnavailable();
  }
}
