import { Viewer } from '@dam/access';

/**
 * A word query over the search index. A term holds the index tokens of one word (a word such as
 * `O'Brien` is two tokens, all required); `prefix` makes the last token a prefix (`bri*`); `all` is `*`.
 */
export type TermQuery =
  | { kind: 'term'; tokens: string[]; prefix: boolean }
  | { kind: 'all' }
  | { kind: 'and'; items: TermQuery[] }
  | { kind: 'or'; items: TermQuery[] }
  | { kind: 'not'; item: TermQuery };

/** A bound on a timestamp: `<` for the day after a date-only upper bound, `<=` for a date-time one. */
export interface TimeBound {
  op: '>=' | '<' | '<=';
  at: Date;
}

export interface IdRange {
  from: number;
  to: number;
}

/** One condition on an asset's attribute values, already checked against the attribute's type. */
export type AttributeCondition =
  /** Words of a text, text area or keywords attribute. */
  | { kind: 'words'; attributeId: number; query: TermQuery }
  /** The value equals `storedValue` (as `parseValue` stores it), case-insensitively. */
  | { kind: 'equals'; attributeId: number; storedValue: string }
  /** Added by one of these users (the "added by" system attribute, resolved from a username). */
  | { kind: 'addedBy'; userIds: number[] };

/**
 * Which assets a caller asks about, as typed conditions that the assets area (the owner of the tables)
 * compiles to SQL. Every field narrows the result; absent fields do not. No SQL crosses this boundary.
 */
export interface AssetFilter {
  /** Only assets this viewer may see (DESIGN §5, the same rule as GET); absent: every asset. */
  visibleTo?: Viewer;
  /** Id ranges, ORed. */
  ids?: IdRange[];
  /** Words over the keyword-searchable attributes. */
  keywords?: { query: TermQuery; attributeIds: number[] };
  /** Attribute conditions joined by `conjunction`. */
  attributes?: { conjunction: 'AND' | 'OR'; conditions: AttributeCondition[] };
  /** The original filename matches `pattern` (case-insensitive, `*` for any characters). */
  filename?: { pattern: string; attributeId: number };
  /** The current content has one of these SHA-256s (lower-case hex; not empty): read from its index. */
  contentSha256?: string[];
  /** The asset type, or for assets without one, the content type of the same name. */
  assetType?: { id: number; name: string };
  addedAt?: TimeBound[];
  modifiedAt?: TimeBound[];
  /** In any of these categories (descendants already expanded by the caller). */
  categoryIds?: number[];
  /** In any of these access levels (descendants already expanded by the caller). */
  accessLevelIds?: number[];
  /** Child of any of these assets. */
  parentIds?: number[];
  /** The approval state as GET shows `approved` (see approval-state.ts). */
  approved?: boolean;
  submitted?: boolean;
  /** Submitted and awaiting upload approval. */
  awaitingUploadApproval?: boolean;
  /** Attribute edits or new content awaiting edit approval. */
  pendingEdit?: boolean;
}

/** How a page is ordered; ties are broken by id in the same direction. */
export type AssetSort =
  | { kind: 'id' }
  | { kind: 'addedAt' }
  | { kind: 'modifiedAt' }
  | { kind: 'value'; attributeId: number; numeric: boolean }
  | { kind: 'addedBy' };
