import { EntityManager } from 'typeorm';
import { SqlFragment } from './asset-visibility';

/** A table linking assets to the items they are counted under (`asset_access_levels.access_level_id`, ...). */
export interface AssetLink {
  table: string;
  column: string;
}

/**
 * Number of assets under each item, in ONE aggregate query (GROUP BY the link column). With `visible`
 * (the DESIGN §5 condition on the `assets` alias `a`) only those assets count; without it the link
 * table's index answers alone. With `ids` (up to 100) only those items are counted. Items without
 * assets are absent from the map.
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
  if (ids !== undefined && ids.length <= 100)
    query.andWhere(`l.${link.column} IN (:...countedIds)`, { countedIds: ids });
  const rows: Array<{ itemId: number | string; assetCount: number | string }> = await query.getRawMany();
  return new Map(rows.map((row) => [Number(row.itemId), Number(row.assetCount)]));
}
