import { Injectable } from '@nestjs/common';
import { Viewer } from '@dam/access';
import { AssetQueries } from '@dam/assets';
import { AppConfig } from '@dam/core';
import { StateConflict } from '@dam/errors';
import { UrlService } from '@dam/http';

/** At most this many URLs in `X-Duplicate-Of`. */
export const MAX_DUPLICATES_NAMED = 10;

/** 409 under DAM_DUPLICATE_UPLOADS=refuse: the bytes are already the current content of `url`. */
export class DuplicateContentRefused extends StateConflict {
  constructor(readonly url: string) {
    super(`this content is already the current content of ${url}: duplicate uploads are refused`);
  }
}

/**
 * DESIGN §12, "Duplicates": what a content upload learns about other assets whose current content has
 * its bytes. Only assets the uploader can see are looked at (the search's visibility rule, through the
 * `contentSha256` filter, which reads the index on `assets.content_sha256`), so an asset they cannot
 * see is never revealed, not even by a 409.
 */
@Injectable()
export class DuplicateContent {
  constructor(
    private readonly queries: AssetQueries,
    private readonly urls: UrlService,
    private readonly config: AppConfig,
  ) {}

  /**
   * The URLs (ascending ids, at most MAX_DUPLICATES_NAMED) of the other assets `viewer` can see whose
   * current content has `sha256`, under `warn`; none under `allow` (not looked for); under `refuse`,
   * DuplicateContentRefused naming the first, if any.
   */
  async otherAssetsWith(viewer: Viewer, assetId: number, sha256: string): Promise<string[]> {
    const policy = this.config.duplicateUploads;
    if (policy === 'allow') return [];
    const ids = await this.queries.ids(
      { visibleTo: viewer, contentSha256: [sha256] },
      MAX_DUPLICATES_NAMED + 1,
    );
    const urls = ids
      .filter((id) => id !== assetId)
      .slice(0, MAX_DUPLICATES_NAMED)
      .map((id) => this.urls.rest('assets', id));
    if (policy === 'refuse' && urls.length > 0) throw new DuplicateContentRefused(urls[0]);
    return urls;
  }
}
