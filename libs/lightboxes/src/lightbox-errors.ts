import { InvalidInput, UnknownResource } from '@dam/errors';

/** 404: no lightbox of that id belongs to the owner. */
export class LightboxNotFound extends UnknownResource {
  constructor(lightboxId: number) {
    super(`lightbox ${lightboxId} does not exist`);
  }
}

/** 404: someone other than an admin asks for another user's lightboxes (as if they did not exist). */
export class OthersLightboxes extends UnknownResource {
  constructor(ownerId: number) {
    super(`user ${ownerId} has no lightboxes you may see`);
  }
}

/** 404: the asset is not in the lightbox, or its owner can no longer see it. */
export class AssetNotInLightbox extends UnknownResource {
  constructor(assetId: number, lightboxId: number) {
    super(`asset ${assetId} is not in lightbox ${lightboxId}`);
  }
}

/** 400: only assets the owner of the lightbox may view can be added to it. */
export class AssetNotViewableByOwner extends InvalidInput {
  constructor(assetId: number) {
    super(`asset ${assetId} does not exist or the owner of the lightbox may not view it`);
  }
}
