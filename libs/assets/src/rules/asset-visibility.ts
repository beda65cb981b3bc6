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
  if (grants.all || placed.asset.addedByUserId === actor.id) return true;
  return visibleThroughLevels(viewer, { ...placed.asset, accessLevelIds: placed.accessLevelIds });
}

/**
 * The part of the rule that does not depend on who uploaded the asset: view on one of its levels, and
 * live or approvable. Counting by `asset_tallies` applies it to each set of levels and state.
 */
export function visibleThroughLevels(
  viewer: Viewer,
  state: Pick<AssetRecord, 'submitted' | 'uploadPending'> & { accessLevelIds: number[] },
): boolean {
  const { grants } = viewer;
  if (grants.all) return true;
  if (!grants.onAny(state.accessLevelIds, 'view')) return false;
  return isLive(state) || grants.onEvery(state.accessLevelIds, 'approve');
}

/**
 * The sets of levels (`asset_level_sets`) through which a viewer sees assets, by `visibleThroughLevels`
 * applied to each: `always` whatever the asset's state (view on one level, approve on all of them),
 * `live` only when the asset is live. The SQL form tests `a.level_set_id` against them.
 */
export interface VisibleLevelSets {
  always: number[];
  live: number[];
}

export function visibleLevelSets(
  viewer: Viewer,
  sets: Iterable<{ levelSetId: number; accessLevelIds: number[] }>,
): VisibleLevelSets {
  const always = new Set<number>();
  const live = new Set<number>();
  for (const { levelSetId, accessLevelIds } of sets) {
    if (always.has(levelSetId) || live.has(levelSetId)) continue;
    if (visibleThroughLevels(viewer, { accessLevelIds, submitted: false, uploadPending: false })) {
      always.add(levelSetId);
    } else if (visibleThroughLevels(viewer, { accessLevelIds, submitted: true, uploadPending: false })) {
      live.add(levelSetId);
    }
  }
  return { always: [...always], live: [...live] };
}
