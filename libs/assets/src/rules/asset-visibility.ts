import { Viewer } from '@dam/access';
import { AssetRecord, PlacedAsset } from '../ports/asset-state';

/** Live: submitted and not awaiting upload approval, so others with view may see it. */
export function isLive(asset: Pick<AssetRecord, 'submitted' | 'uploadPending'>): boolean {
  return asset.submitted && !asset.uploadPending;
}

/**
 * The visibility rule of DESIGN §5 for one asset (GET, writes); the SQL form for search, counts and
 * lists is `visibilitySql` in ../queries/asset-filter.sql.ts, checked against this one by its spec:
 * - admins and the application user see everything;
 * - the uploader always sees their own asset;
 * - others need view on at least one of its levels, and the asset must be live unless they may approve
 *   it (approve on every one of its levels).
 */
export function assetVisibleTo(viewer: Viewer, placed: PlacedAsset): boolean {
  const { actor, grants } = viewer;
  const { asset, accessLevelIds } = placed;
  if (grants.all || asset.addedByUserId === actor.id) return true;
  if (!grants.onAny(accessLevelIds, 'view')) return false;
  return isLive(asset) || grants.onEvery(accessLevelIds, 'approve');
}
