import { Injectable } from '@nestjs/common';
import { ActorUser, isSelfOrAdmin } from '@dam/access';
import { LightboxNotFound } from './lightbox-errors';
import { LightboxContentsRepository } from './lightbox-contents.repository';
import { LightboxesRepository } from './lightboxes.repository';
import { LightboxesService } from './lightboxes.service';

/** A lightbox as other areas read it (shares, its ZIP): its name and the assets in it. */
export interface LightboxAssetList {
  lightboxId: number;
  name: string;
  /** In the order they were added; only those its owner can still see. */
  assetIds: number[];
}

/**
 * The assets of a lightbox named by its id alone, for the areas above (shares). The lightbox is reached
 * as through `/rest/users/{id}/lightboxes/{id}`: its owner's, or anyone's for admins; else 404.
 */
@Injectable()
export class LightboxAssets {
  constructor(
    private readonly lightboxes: LightboxesRepository,
    private readonly contents: LightboxContentsRepository,
    private readonly service: LightboxesService,
  ) {}

  async of(actor: ActorUser, lightboxId: number): Promise<LightboxAssetList> {
    const found = await this.lightboxes.findById(lightboxId);
    if (found === null || !isSelfOrAdmin(actor, found.userId)) throw new LightboxNotFound(lightboxId);
    const { lightbox, viewer } = await this.service.ownedOrThrow(actor, found.userId, lightboxId);
    const assetIds = await this.service.visibleAssetIds(viewer, await this.contents.assetIds(lightbox.id));
    return { lightboxId, name: lightbox.name, assetIds };
  }
}
