/** The core facts of an asset (a domain type: the entity stays inside the assets area). */
export interface AssetRecord {
  id: number;
  submitted: boolean;
  uploadPending: boolean;
  /** A new file uploaded with edit-with-approval waits for approval (set by the content area). */
  contentPending: boolean;
  archived: boolean;
  /** File, Image, Video or Audio, from the content. */
  type: string;
  /** SHA-256 (lower-case hex) of the current content; null without content. */
  contentSha256: string | null;
  assetTypeId: number | null;
  addedByUserId: number | null;
  createdAt: Date;
  updatedAt: Date;
  /** Raised by every write of the asset: ETags and `If-Match` (absent in records built by hand). */
  version?: number;
}

export interface AttributeValue {
  attributeId: number;
  /** '' is the default language. */
  language: string;
  value: string;
}

/** An asset with the access levels every permission decision needs. */
export interface PlacedAsset {
  asset: AssetRecord;
  accessLevelIds: number[];
}

/** Everything the representation shows beyond the core row. */
export interface AssetState extends PlacedAsset {
  categoryIds: number[];
  parentIds: number[];
  values: AttributeValue[];
  /** Attribute edits or content awaiting edit approval. */
  hasPendingEdit: boolean;
  addedByUsername: string | null;
}
