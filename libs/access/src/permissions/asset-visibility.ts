import { ActorUser } from '../auth/actor';
import { AccessGrants } from './access-grants';

export interface SqlFragment {
  sql: string;
  params: Record<string, unknown>;
}

/**
 * The visibility rule of DESIGN §5 as a SQL condition on an `assets` alias, for search, counts and
 * lists, so they agree exactly with GET:
 * - admins and the application user see everything;
 * - the uploader always sees their own asset;
 * - others need view on at least one of its levels, and the asset must be live (submitted and not
 *   awaiting upload approval) unless they may approve it (approve on every one of its levels).
 * Parameter names are prefixed with `vis_` so the fragment composes with other conditions.
 */
export function assetVisibilityCondition(
  actor: ActorUser,
  grants: AccessGrants,
  alias = 'a',
): SqlFragment | undefined {
  if (grants.all) return undefined;
  const viewLevels = grants.levelsWith('view');
  const approveLevels = grants.levelsWith('approve');
  const params: Record<string, unknown> = { vis_user: actor.id };
  const uploader = `${alias}.added_by_user_id = :vis_user`;
  if (viewLevels.length === 0) return { sql: `(${uploader})`, params };
  params.vis_view = viewLevels;
  const viewable =
    `EXISTS (SELECT 1 FROM asset_access_levels vis_v WHERE vis_v.asset_id = ${alias}.id ` +
    `AND vis_v.access_level_id IN (:...vis_view))`;
  const live = `(${alias}.submitted = :vis_true AND ${alias}.upload_pending = :vis_false)`;
  params.vis_true = true;
  params.vis_false = false;
  let approvable = '';
  if (approveLevels.length > 0) {
    params.vis_approve = approveLevels;
    approvable =
      ` OR NOT EXISTS (SELECT 1 FROM asset_access_levels vis_p WHERE vis_p.asset_id = ${alias}.id ` +
      `AND vis_p.access_level_id NOT IN (:...vis_approve))`;
  }
  return { sql: `(${uploader} OR (${viewable} AND (${live}${approvable})))`, params };
}

/** The same rule for one asset already loaded, for GET and writes. */
export function isAssetVisible(
  actor: ActorUser,
  grants: AccessGrants,
  asset: {
    addedByUserId: number | null;
    submitted: boolean;
    uploadPending: boolean;
    accessLevelIds: number[];
  },
): boolean {
  if (grants.all || asset.addedByUserId === actor.id) return true;
  if (!grants.onAny(asset.accessLevelIds, 'view')) return false;
  const live = asset.submitted && !asset.uploadPending;
  return live || grants.onEvery(asset.accessLevelIds, 'approve');
}
