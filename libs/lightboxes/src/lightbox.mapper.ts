import { Injectable } from '@nestjs/common';
import { UrlService, xmlMapping } from '@dam/http';
import { ContentRef, ContentView } from './lightbox-contents.service';
import { LightboxView } from './lightboxes.service';

/** Spec 2.7 (`lightboxInstanceUrl` only in the per-user list). */
export interface LightboxRepresentation {
  id: number;
  name: string;
  description: string;
  size: number;
  lightboxContentsUrl: string;
  lightboxPublicUrl: string | null;
}

export interface LightboxListItem extends LightboxRepresentation {
  lightboxInstanceUrl: string;
}

/** Spec 2.8. */
export interface LightboxContentItem {
  url: string;
  assetInLightboxUrl: string;
  contentUrl: string;
  displayUrl: string;
  thumbnailUrl: string;
  previewUrl: string;
  unwatermarkedLargeImageUrl: string;
  approved: 'true' | 'false';
  attributes: Array<{ id: string; label: string; value: string }>;
}

/** Spec 2.9. */
export interface LightboxContentInstance {
  assetInstanceUrl: string;
  lightboxInstanceUrl: string;
}

/** XML (DESIGN §3): `<lightbox>`; a lightbox's contents are `<lightboxItem>`s with `<attributes><attribute>`. */
export const LIGHTBOX_XML = xmlMapping('lightbox');
export const LIGHTBOX_ITEM_XML = xmlMapping('lightboxItem', { attributes: 'attribute' });

@Injectable()
export class LightboxMapper {
  constructor(private readonly urls: UrlService) {}

  listUrl(ownerId: number): string {
    return this.urls.rest('users', ownerId, 'lightboxes');
  }

  instanceUrl(ownerId: number, lightboxId: number): string {
    return this.urls.rest('users', ownerId, 'lightboxes', lightboxId);
  }

  contentsUrl(at: { ownerId: number; lightboxId: number }): string {
    return this.urls.rest('users', at.ownerId, 'lightboxes', at.lightboxId, 'contents');
  }

  contentUrl(ref: ContentRef): string {
    return this.urls.rest('users', ref.ownerId, 'lightboxes', ref.lightboxId, 'contents', ref.assetId);
  }

  toRepresentation({ lightbox, size }: LightboxView): LightboxRepresentation {
    return {
      id: lightbox.id,
      name: lightbox.name,
      description: lightbox.description ?? '',
      size,
      lightboxContentsUrl: this.contentsUrl({ ownerId: lightbox.userId, lightboxId: lightbox.id }),
      // Public lightbox links are not offered by this service.
      lightboxPublicUrl: null,
    };
  }

  toListItem(view: LightboxView): LightboxListItem {
    return {
      ...this.toRepresentation(view),
      lightboxInstanceUrl: this.instanceUrl(view.lightbox.userId, view.lightbox.id),
    };
  }

  /** The asset as its own representation shows it; attributes carry `label` (spec 2.4) and approved is a string. */
  toContentItem({ ownerId, lightboxId, asset }: ContentView): LightboxContentItem {
    return {
      url: asset.url,
      assetInLightboxUrl: this.contentUrl({ ownerId, lightboxId, assetId: asset.id }),
      contentUrl: asset.contentUrl,
      displayUrl: asset.displayUrl,
      thumbnailUrl: asset.thumbnailUrl,
      previewUrl: asset.previewUrl,
      unwatermarkedLargeImageUrl: asset.unwatermarkedLargeImageUrl,
      approved: asset.approved ? 'true' : 'false',
      attributes: asset.attributes.map(({ id, name, value }) => ({ id, label: name, value })),
    };
  }

  toContentInstance(ref: ContentRef): LightboxContentInstance {
    return {
      assetInstanceUrl: this.urls.rest('assets', ref.assetId),
      lightboxInstanceUrl: this.instanceUrl(ref.ownerId, ref.lightboxId),
    };
  }
}
