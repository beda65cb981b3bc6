import { AssetFilter, AssetSort } from './asset-filter';
import { AssetState } from './asset-state';

export interface AssetPage {
  total: number;
  ids: number[];
}

/**
 * What other areas may ask about assets (search, publishing, lightboxes, checkout, counts). The assets
 * area implements it over its own tables; callers compose an AssetFilter and never see SQL.
 */
export abstract class AssetQueries {
  /** The total and one page of ids in `sort` order. */
  abstract page(
    filter: AssetFilter,
    sort: AssetSort,
    descending: boolean,
    offset: number,
    limit: number,
  ): Promise<AssetPage>;

  abstract count(filter: AssetFilter): Promise<number>;

  /** Every matching id, ascending (for sets such as publishing members); at most `limit` when given. */
  abstract ids(filter: AssetFilter, limit?: number): Promise<number[]>;

  /** Which of `ids` match (order kept). */
  abstract matching(ids: number[], filter: AssetFilter): Promise<number[]>;

  /** Matching assets per access level or per category they are directly in; only `ids` when given. */
  abstract countPer(
    link: 'accessLevel' | 'category',
    filter: AssetFilter,
    ids?: number[],
  ): Promise<Map<number, number>>;

  /** The state of each asset in the order of `ids` (missing ones skipped), values in `languages` only. */
  abstract states(ids: number[], languages: string[]): Promise<AssetState[]>;
}
