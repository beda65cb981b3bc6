import { AssetFilter, AssetSort } from './asset-filter';
import { AssetState } from './asset-state';

export interface AssetPage {
  total: number;
  ids: number[];
}

/**
 * Where a keyset page starts: right after the row with this sort key and id (the last row of the previous
 * page). `key` is the row's sort key as the sort defines it (a number, a text, an ISO time), null when the
 * row has none; absent for the id order.
 */
export interface AssetPosition {
  key?: number | string | null;
  id: number;
}

/** One page of a search: skip `offset` rows (page-based), or start after a position (keyset). */
export type AssetPageStart = { offset: number } | { after: AssetPosition };

export interface AssetSearchPage {
  /** Absent when the caller asked for no count. */
  total?: number;
  ids: number[];
  /** The position after the last id, when another page follows. */
  next?: AssetPosition;
}

/** What a facet counts: assets per category, access level, asset type, value of an attribute, year added. */
export type AssetFacet =
  | { kind: 'category' }
  | { kind: 'accessLevel' }
  | { kind: 'assetType' }
  | { kind: 'attribute'; attributeId: number }
  | { kind: 'addedYear' };

/**
 * One value of a facet and how many matching assets have it. `value`: a category or access level id, an
 * asset type id (or, for assets without one, the name of their content type), a stored attribute value, a
 * year.
 */
export interface AssetFacetCount {
  value: number | string;
  count: number;
}

/** The facet counts of a search (one list per facet asked for, in order) and its total, counted alike. */
export interface AssetFacets {
  total: number;
  counts: AssetFacetCount[][];
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

  /**
   * One page of a search, by offset or after a keyset position (a deep page then costs what the first
   * does), with the total unless `count` is false. Reads may come from the read replica
   * (DATABASE_READ_URL), so they may lag the caller's own writes by the replication delay.
   */
  abstract searchPage(
    filter: AssetFilter,
    sort: AssetSort,
    descending: boolean,
    start: AssetPageStart,
    limit: number,
    count: boolean,
  ): Promise<AssetSearchPage>;

  /**
   * Per facet, the `limit` values with the most matching assets (most first, then by value), counted
   * over exactly the assets `filter` matches (visibility included), and the number of those assets (the
   * search's total, so that `searchPage` need not count them again). Read like `searchPage`.
   */
  abstract facetCounts(filter: AssetFilter, facets: AssetFacet[], limit: number): Promise<AssetFacets>;

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
