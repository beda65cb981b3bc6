import { AssetRecord } from '../ports/asset-state';

/**
 * The approval state of an asset (spec 3), as GET shows it; the SQL forms (`approvedSql`,
 * `pendingEditSql`, `awaitingUploadApprovalSql` in ../queries/asset-filter.sql.ts) are checked against
 * these by their spec.
 */

/** Attribute edits (a row in asset_pending_edits) or new content await edit approval. */
export function hasPendingEdit(
  asset: Pick<AssetRecord, 'contentPending'>,
  hasPendingEditRow: boolean,
): boolean {
  return hasPendingEditRow || asset.contentPending;
}

/** `approved` of the representation: no upload approval and no edit approval outstanding. */
export function isApproved(asset: Pick<AssetRecord, 'uploadPending'>, pendingEdit: boolean): boolean {
  return !asset.uploadPending && !pendingEdit;
}

/** Submitted by a user with only upload-with-approval permission and not approved yet. */
export function awaitsUploadApproval(asset: Pick<AssetRecord, 'submitted' | 'uploadPending'>): boolean {
  return asset.submitted && asset.uploadPending;
}
