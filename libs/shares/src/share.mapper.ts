import { Injectable } from '@nestjs/common';
import { UrlService, xmlMapping } from '@dam/http';
import { OpenShare } from './public-shares.service';
import { Share } from './shares.repository';

/** `GET /rest/shares/{id}`; `publicUrl` only in the answer of the creation. */
export interface ShareRepresentation {
  id: number;
  url: string;
  publicUrl: string | null;
  title: string;
  rendition: string;
  expiresAt: string;
  maxDownloads: number | null;
  downloads: number;
  hasPassword: boolean;
  revokedAt: string | null;
  createdAt: string;
  ownerUrl: string;
}

/** `GET {publicUrl}`. */
export interface PublicShareRepresentation {
  title: string;
  expiresAt: string;
  items: Array<{ filename: string; size: number; contentType: string; downloadUrl: string }>;
  zipUrl: string;
}

export const SHARE_XML = xmlMapping('share');
export const PUBLIC_SHARE_XML = xmlMapping('share', { items: 'item' });

@Injectable()
export class ShareMapper {
  constructor(private readonly urls: UrlService) {}

  listUrl(): string {
    return this.urls.rest('shares');
  }

  instanceUrl(id: number): string {
    return this.urls.rest('shares', id);
  }

  publicUrl(token: string): string {
    return this.urls.rest('shared', token);
  }

  toShare(share: Share, token?: string): ShareRepresentation {
    return {
      id: share.id,
      url: this.instanceUrl(share.id),
      publicUrl: token === undefined ? null : this.publicUrl(token),
      title: share.title,
      rendition: share.rendition,
      expiresAt: share.expiresAt.toISOString(),
      maxDownloads: share.maxDownloads,
      downloads: share.downloads,
      hasPassword: share.passwordHash !== null,
      revokedAt: share.revokedAt?.toISOString() ?? null,
      createdAt: share.createdAt.toISOString(),
      ownerUrl: this.urls.rest('users', share.userId),
    };
  }

  toPublic(token: string, open: OpenShare): PublicShareRepresentation {
    return {
      title: open.share.title,
      expiresAt: open.share.expiresAt.toISOString(),
      items: open.items.map(({ position, content }) => ({
        filename: content.filename,
        size: content.size,
        contentType: content.contentType,
        downloadUrl: this.urls.rest('shared', token, 'items', position),
      })),
      zipUrl: this.urls.rest('shared', token, 'zip'),
    };
  }
}
