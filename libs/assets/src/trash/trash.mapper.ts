import { Injectable } from '@nestjs/common';
import { UrlService, xmlMapping } from '@dam/http';
import { TrashedAsset } from './trash.repository';

/** An item of `GET /rest/admin/trash`. */
export interface TrashedAssetRepresentation {
  id: number;
  /** The URL the asset had, and has again once restored. */
  asset: string;
  title: string | null;
  /** The user who deleted it (null when a job did). */
  deletedBy: string | null;
  deletedAt: string;
  purgeAt: string;
}

export const TRASHED_ASSET_XML = xmlMapping('trashedAsset');

@Injectable()
export class TrashMapper {
  constructor(private readonly urls: UrlService) {}

  listUrl(): string {
    return this.urls.rest('admin', 'trash');
  }

  toTrashedAsset(trashed: TrashedAsset): TrashedAssetRepresentation {
    return {
      id: trashed.id,
      asset: this.urls.rest('assets', trashed.assetId),
      title: trashed.title,
      deletedBy: trashed.deletedByUserId === null ? null : this.urls.rest('users', trashed.deletedByUserId),
      deletedAt: trashed.deletedAt.toISOString(),
      purgeAt: trashed.purgeAt.toISOString(),
    };
  }
}
