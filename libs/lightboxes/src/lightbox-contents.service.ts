import { Injectable } from '@nestjs/common';
import { ActorUser } from '@dam/access';
import { AssetReader, AssetRepresentation } from '@dam/assets';
import { UnknownResource } from '@dam/errors';
import { DomainEvents } from '@dam/events';
import { Paging, UrlService } from '@dam/http';
import { AssetNotInLightbox, AssetNotViewableByOwner } from './lightbox-errors';
import { LightboxContentsRepository } from './lightbox-contents.repository';
import { LightboxesService } from './lightboxes.service';
import { LightboxAssetAdded, lightboxAssetEventData, LightboxAssetRemoved } from './events/lightbox-events';

/** An asset in a lightbox, as the assets area represents it in the request's language. */
export interface ContentView {
  ownerId: number;
  lightboxId: number;
  asset: AssetRepresentation;
}

export interface ContentRef {
  ownerId: number;
  lightboxId: number;
  assetId: number;
}

/**
 * The assets in a lightbox (spec 2.8, 2.9, 4.4). What the lightbox holds is judged by its owner's
 * eyes: only assets the owner may view can be added, and assets the owner can no longer see are left
 * out of every answer (they come back if the owner regains sight of them).
 */
@Injectable()
export class LightboxContentsService {
  constructor(
    private readonly lightboxes: LightboxesService,
    private readonly contents: LightboxContentsRepository,
    private readonly assets: AssetReader,
    private readonly urls: UrlService,
    private readonly events: DomainEvents,
  ) {}

  /** In the order they were added; one page of them when `paging` is given. */
  async list(
    actor: ActorUser,
    ownerId: number,
    lightboxId: number,
    paging?: Paging,
  ): Promise<{ views: ContentView[]; total: number }> {
    const { viewer } = await this.lightboxes.ownedOrThrow(actor, ownerId, lightboxId);
    const all = await this.lightboxes.visibleAssetIds(viewer, await this.contents.assetIds(lightboxId));
    const page = paging === undefined ? all : all.slice(paging.offset, paging.offset + paging.pageSize);
    const assets = await Promise.all(page.map((assetId) => this.representationIfExists(assetId)));
    const views = assets.flatMap((asset) => (asset === undefined ? [] : [{ ownerId, lightboxId, asset }]));
    return { views, total: all.length };
  }

  /** Adds the asset named by `url`; `added` is false when it was already there (one copy is kept). */
  async add(
    actor: ActorUser,
    ownerId: number,
    lightboxId: number,
    url: unknown,
  ): Promise<ContentRef & { added: boolean }> {
    const { viewer, lightbox } = await this.lightboxes.ownedOrThrow(actor, ownerId, lightboxId);
    const assetId = this.urls.parseIdOrThrow(url, 'assets', 'an asset', 'url');
    if ((await this.lightboxes.visibleAssetIds(viewer, [assetId])).length === 0) {
      throw new AssetNotViewableByOwner(assetId);
    }
    const outcome = await this.contents.add(lightboxId, assetId, (manager) =>
      this.events.record(
        manager,
        new LightboxAssetAdded(
          lightboxAssetEventData(this.urls, lightbox.userId, lightboxId, assetId, actor.id),
        ),
      ),
    );
    if (outcome === 'missing') throw new AssetNotViewableByOwner(assetId);
    return { ownerId, lightboxId, assetId, added: outcome === 'added' };
  }

  async get(actor: ActorUser, ownerId: number, lightboxId: number, assetId: number): Promise<ContentRef> {
    const { viewer } = await this.lightboxes.ownedOrThrow(actor, ownerId, lightboxId);
    const present = await this.contents.assetIds(lightboxId, assetId);
    if ((await this.lightboxes.visibleAssetIds(viewer, present)).length === 0) {
      throw new AssetNotInLightbox(assetId, lightboxId);
    }
    return { ownerId, lightboxId, assetId };
  }

  async remove(actor: ActorUser, ownerId: number, lightboxId: number, assetId: number): Promise<void> {
    await this.get(actor, ownerId, lightboxId, assetId);
    await this.contents.remove(lightboxId, assetId, (manager) =>
      this.events.record(
        manager,
        new LightboxAssetRemoved(lightboxAssetEventData(this.urls, ownerId, lightboxId, assetId, actor.id)),
      ),
    );
  }

  /** An asset deleted while the list was read is simply left out. */
  private async representationIfExists(assetId: number): Promise<AssetRepresentation | undefined> {
    try {
      return await this.assets.representation(assetId);
    } catch (error) {
      if (error instanceof UnknownResource) return undefined;
      throw error;
    }
  }
}
