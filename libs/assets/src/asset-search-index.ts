import { AttributeType } from '@dam/attributes';
import { tokenRows } from '@dam/platform';
import { EntityManager } from 'typeorm';

const INSERT_BATCH = 500;

/**
 * Keeps the search index (`asset_search_tokens` and the typed sort copy `asset_sort_numbers`, read by
 * @dam/search) in step with an asset's attribute values. Called inside the transaction that wrote the
 * values, so a search never sees a value without its tokens or the other way round. Deleting an asset
 * drops its rows by foreign-key cascade.
 */
export async function reindexAssetAttributes(
  manager: EntityManager,
  assetId: number,
  attributeIds: readonly number[],
): Promise<void> {
  const ids = [...new Set(attributeIds)];
  if (ids.length === 0) return;
  for (const table of ['asset_search_tokens', 'asset_sort_numbers']) {
    await manager
      .createQueryBuilder()
      .delete()
      .from(table)
      .where('asset_id = :assetId AND attribute_id IN (:...ids)', { assetId, ids })
      .execute();
  }
  const values: Array<{
    attributeId: number | string;
    typeId: number | string;
    language: string;
    value: string;
  }> = await manager
    .createQueryBuilder()
    .select('v.attribute_id', 'attributeId')
    .addSelect('at.type_id', 'typeId')
    .addSelect('v.language', 'language')
    .addSelect('v.value', 'value')
    .from('asset_attribute_values', 'v')
    .innerJoin('attributes', 'at', 'at.id = v.attribute_id')
    .where('v.asset_id = :assetId AND v.attribute_id IN (:...ids)', { assetId, ids })
    .getRawMany();
  const rows = tokenRows(
    values.map((row) => ({
      assetId,
      attributeId: Number(row.attributeId),
      typeId: Number(row.typeId),
      value: row.value,
    })),
  );
  for (let start = 0; start < rows.length; start += INSERT_BATCH) {
    await manager
      .createQueryBuilder()
      .insert()
      .into('asset_search_tokens', ['token', 'asset_id', 'attribute_id'])
      .values(
        rows
          .slice(start, start + INSERT_BATCH)
          .map(([token, asset, attributeId]) => ({ token, asset_id: asset, attribute_id: attributeId })),
      )
      .execute();
  }
  const numbers = values
    .filter((row) => Number(row.typeId) === AttributeType.Numeric && row.language === '')
    .map((row) => ({ asset_id: assetId, attribute_id: Number(row.attributeId), value: Number(row.value) }))
    .filter((row) => Number.isFinite(row.value));
  if (numbers.length > 0) {
    await manager
      .createQueryBuilder()
      .insert()
      .into('asset_sort_numbers', ['asset_id', 'attribute_id', 'value'])
      .values(numbers)
      .execute();
  }
}
