/**
 * The answers of AssetQueries (queries/asset-queries.service.ts), what other areas may ask about assets:
 * callers compose an AssetFilter, inject AssetQueries itself (no binding between), and never see SQL.
 */

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
