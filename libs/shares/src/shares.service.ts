import { Injectable } from '@nestjs/common';
import { ActorUser, isPrivileged, isSelfOrAdmin, PasswordHasher } from '@dam/access';
import { DownloadableContents } from '@dam/asset-content';
import { AppConfig } from '@dam/core';
import { InvalidInput } from '@dam/errors';
import { DomainEvents } from '@dam/events';
import { Paging, UrlService } from '@dam/http';
import { PurgeHooks } from '@dam/jobs';
import { LightboxAssets } from '@dam/lightboxes';
import { ShareCreateDto } from './dto/share-create.dto';
import { ShareCreated, shareEventData, ShareRevoked } from './events/share-events';
import { ShareNotFound } from './share-errors';
import {
  newShareToken,
  shareExpiry,
  shareMaxDownloads,
  sharePassword,
  shareRendition,
  shareSource,
  shareTitle,
  shareTokenHash,
  wholeSeconds,
} from './share-rules';
import { Share, SharesRepository } from './shares.repository';

/** Shares deleted per batch by `purge-expired-shares`. */
const PURGE_BATCH = 500;

/**
 * Shares (DESIGN §12, issue 33): created by a user for assets they may download, listed and revoked by
 * them (admins: everyone's). The link's token is handed out once, in the creation's answer; only its hash
 * is kept.
 */
@Injectable()
export class SharesService {
  constructor(
    private readonly shares: SharesRepository,
    private readonly contents: DownloadableContents,
    private readonly lightboxes: LightboxAssets,
    private readonly hasher: PasswordHasher,
    private readonly events: DomainEvents,
    private readonly urls: UrlService,
    private readonly config: AppConfig,
  ) {}

  /** The new share and its token (the only time the token exists outside the link). */
  async create(actor: ActorUser, body: ShareCreateDto): Promise<{ share: Share; token: string }> {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new InvalidInput('send the share as a JSON object');
    }
    const now = wholeSeconds(new Date());
    const source = shareSource(body.assetIds, body.lightboxId);
    const expiresAt = shareExpiry(body.expiresAt, now, this.config.shareMaxDays);
    const rendition = shareRendition(body.rendition);
    const maxDownloads = shareMaxDownloads(body.maxDownloads);
    const password = sharePassword(body.password);
    let assetIds: number[];
    let title: string;
    if ('lightboxId' in source) {
      const lightbox = await this.lightboxes.of(actor, source.lightboxId);
      if (lightbox.assetIds.length === 0)
        throw new InvalidInput(`lightbox ${source.lightboxId} holds no assets`);
      ({ assetIds } = lightbox);
      title = shareTitle(body.title, lightbox.name);
    } else {
      ({ assetIds } = source);
      title = shareTitle(body.title, assetIds.length === 1 ? '1 file' : `${assetIds.length} files`);
    }
    await this.contents.assertDownloadable(actor, assetIds);
    const token = newShareToken();
    const share = await this.shares.create(
      {
        tokenHash: shareTokenHash(token),
        userId: actor.id,
        title,
        rendition,
        passwordHash: password === null ? null : await this.hasher.hash(password),
        expiresAt,
        maxDownloads,
        downloads: 0,
        revokedAt: null,
        createdAt: now,
      },
      assetIds,
      (manager, id) =>
        this.events.record(manager, new ShareCreated(shareEventData(this.urls, id, actor.id, actor.id))),
    );
    return { share, token };
  }

  /** The actor's own, newest first; admins and the application user see everyone's. */
  list(actor: ActorUser, paging: Paging): Promise<{ shares: Share[]; total: number }> {
    return this.shares.page(isPrivileged(actor) ? undefined : actor.id, paging.offset, paging.pageSize);
  }

  async getOrThrow(actor: ActorUser, id: number): Promise<Share> {
    const share = await this.shares.findById(id);
    if (share === null || !isSelfOrAdmin(actor, share.userId)) throw new ShareNotFound(id);
    return share;
  }

  /** Its public URLs answer 404 from now on, on every instance (read from the database each time). */
  async revoke(actor: ActorUser, id: number): Promise<void> {
    const share = await this.getOrThrow(actor, id);
    await this.shares.revoke(share.id, new Date(), (manager) =>
      this.events.record(
        manager,
        new ShareRevoked(shareEventData(this.urls, share.id, share.userId, actor.id)),
      ),
    );
  }

  async removableIds(now: Date, limit: number): Promise<string[]> {
    return (await this.shares.expiredIds(now, limit)).map(String);
  }

  /** Deletes shares past their expiry (revoked or not), in batches. */
  async purgeExpired(now: Date, hooks: PurgeHooks): Promise<number> {
    let removed = 0;
    for (;;) {
      const ids = await this.shares.expiredIds(now, PURGE_BATCH);
      if (ids.length === 0) return removed;
      removed += await this.shares.delete(ids);
      for (const id of ids) hooks.removed?.(String(id));
      await hooks.checkpoint?.();
    }
  }
}
