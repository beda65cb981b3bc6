import { EntityManager } from 'typeorm';
import { ActorUser } from '../auth/actor';
import { AccessGrants } from './access-grants';
import { SqlFragment } from './asset-visibility';

/** A table linking assets to the items they are counted under (`asset_access_levels.access_level_id`, ...). */
export interface AssetLink {
  table: string;
  column: string;
}

const LEVEL_LINK: AssetLink = { table: 'asset_access_levels', column: 'access_level_id' };

/** Beyond a few thousand ids a list costs more than it saves (and nears SQLite's parameter limit). */
const MAX_LISTED_IDS = 5000;

/**
 * Number of assets under each item, in ONE aggregate query (GROUP BY the link column). With `visible`
 * (the DESIGN §5 condition on the `assets` alias `a`) only those assets count; without it the link
 * table's index answers alone. With `ids` only those items are counted. Items without assets are
 * absent from the map.
 */
export async function countAssetsPer(
  manager: EntityManager,
  link: AssetLink,
  visible: SqlFragment | undefined,
  ids?: number[],
): Promise<Map<number, number>> {
  if (ids !== undefined && ids.length === 0) return new Map();
  const query = manager
    .createQueryBuilder()
    .select(`l.${link.column}`, 'itemId')
    .addSelect('COUNT(*)', 'assetCount')
    .from(link.table, 'l')
    .groupBy(`l.${link.column}`);
  if (visible !== undefined)
    query.innerJoin('assets', 'a', 'a.id = l.asset_id').where(visible.sql, visible.params);
  if (ids !== undefined && ids.length <= MAX_LISTED_IDS) {
    query.andWhere(`l.${link.column} IN (:...countedIds)`, { countedIds: ids });
  }
  return toCounts(await query.getRawMany());
}

/**
 * Assets directly in each of `levelIds` that the actor may see (DESIGN §5), in ONE aggregate statement:
 * every link of the level (answered by the index alone) minus the links to assets hidden from the actor.
 * Only levels the actor may view are counted (others are dropped from `levelIds`): there the "view on
 * one of its levels" part of the rule holds for every asset, so an asset is hidden exactly when it is
 * not live, not the actor's own upload, and not approvable by the actor (approve on every one of its
 * levels) — the complement of `assetVisibilityCondition`. Hidden assets are the few not live ones, found
 * through the index on (submitted, upload_pending), so this costs far less than testing every asset.
 */
export async function countVisibleAssetsPerLevel(
  manager: EntityManager,
  actor: ActorUser,
  grants: AccessGrants,
  levelIds: number[],
): Promise<Map<number, number>> {
  if (grants.all) return countAssetsPer(manager, LEVEL_LINK, undefined, levelIds);
  const viewable = levelIds.filter((id) => grants.has(id, 'view'));
  if (viewable.length === 0) return new Map();
  const approvable = grants.levelsWith('approve');
  const notApprovable =
    approvable.length === 0
      ? ''
      : 'AND EXISTS (SELECT 1 FROM asset_access_levels p WHERE p.asset_id = a.id AND p.access_level_id NOT IN (:...approvable)) ';
  const sql =
    'SELECT c.level_id AS itemId, SUM(c.n) AS assetCount FROM (' +
    'SELECT l.access_level_id AS level_id, COUNT(*) AS n FROM asset_access_levels l ' +
    'WHERE l.access_level_id IN (:...viewable) GROUP BY l.access_level_id ' +
    'UNION ALL ' +
    'SELECT l.access_level_id AS level_id, -COUNT(*) AS n FROM assets a ' +
    'JOIN asset_access_levels l ON l.asset_id = a.id ' +
    'WHERE (a.submitted = 0 OR (a.submitted = 1 AND a.upload_pending = 1)) ' +
    'AND (a.added_by_user_id IS NULL OR a.added_by_user_id <> :actor) ' +
    notApprovable +
    'AND l.access_level_id IN (:...viewable) GROUP BY l.access_level_id' +
    ') c GROUP BY c.level_id';
  const [query, parameters] = manager.connection.driver.escapeQueryWithParameters(sql, {
    viewable,
    approvable,
    actor: actor.id,
  });
  return toCounts(await manager.query(query, parameters));
}

function toCounts(
  rows: Array<{ itemId: number | string; assetCount: number | string }>,
): Map<number, number> {
  return new Map(rows.map((row) => [Number(row.itemId), Number(row.assetCount)]));
}
