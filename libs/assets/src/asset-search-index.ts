import { AttributesCatalog, AttributeType } from '@dam/attributes';
import { tokenRows } from '@dam/core';
import { EntityManager } from 'typeorm';

const INSERT_BATCH = 500;

/**
 * The tables of the search index, each an asset's rows per attribute: the tokens, and the sort copies of
 * numeric values and of text values (its first SORT_TEXT_LENGTH characters).
 */
export const SEARCH_INDEX_TABLES = ['asset_search_tokens', 'asset_sort_numbers', 'asset_sort_texts'];

/** How many characters of a text value `asset_sort_texts` keeps (its migration's column length). */
const SORT_TEXT_LENGTH = 64;

/**
 * The type of each attribute (the attributes area's catalog), for tokenising values: attributes it
 * does not know (deleted meanwhile) lose their index rows and get none.
 */
export async function attributeTypes(
  catalog: AttributesCatalog,
  language: string,
  attributeIds: readonly number[],
): Promise<Map<number, number>> {
  if (attributeIds.length === 0) return new Map();
  const definitions = await catalog.byIds([...attributeIds], language);
  return new Map(definitions.map((definition) => [definition.id, definition.typeId]));
}

/** The primary key of each search index table. */
const PRIMARY_KEYS: Record<string, readonly string[]> = {
  asset_search_tokens: ['token', 'asset_id', 'attribute_id'],
  asset_sort_numbers: ['attribute_id', 'asset_id'],
  asset_sort_texts: ['attribute_id', 'asset_id'],
};

/**
 * The asset's rows of these attributes in one search index table (their primary keys), read without a
 * lock: the asset row is locked, so no other writer changes them.
 */
async function indexRows(
  manager: EntityManager,
  table: string,
  assetId: number,
  ids: readonly number[],
): Promise<Array<Record<string, unknown>>> {
  return manager
    .createQueryBuilder()
    .select(PRIMARY_KEYS[table].map((column) => `r.${column}`).join(', '))
    .from(table, 'r')
    .where('r.asset_id = :assetId AND r.attribute_id IN (:...ids)', { assetId, ids })
    .getRawMany();
}

/**
 * Deletes rows of a search index table one by one by their whole primary key: each statement locks its
 * row only. A DELETE of the range `asset_id = ? AND attribute_id IN (...)` (or of several keys at once)
 * took InnoDB's next-key locks, the gaps beside the rows included, and a search of a missing key locks
 * its gap: the reindex of a neighbouring asset in another transaction, inserting into such a gap, waited
 * for it while holding a gap of its own, and one of them died of a deadlock (concurrent content PUTs
 * with extractEmbeddedData answered 500). Only rows read to exist are deleted, so no gap is locked.
 */
async function deleteRows(
  manager: EntityManager,
  table: string,
  rows: ReadonlyArray<Record<string, unknown>>,
): Promise<void> {
  const key = PRIMARY_KEYS[table];
  const sql = `DELETE FROM ${table} WHERE ${key.map((column) => `${column} = ?`).join(' AND ')}`;
  for (const row of rows)
    await manager.query(
      sql,
      key.map((column) => row[column]),
    );
}

/**
 * Keeps the search index (`asset_search_tokens` and the sort copies `asset_sort_numbers` and
 * `asset_sort_texts`, read by AssetQueries) in step with an asset's attribute values. Called inside the
 * transaction that wrote the values, so a search never sees a value without its tokens or the other way
 * round. Deleting an asset drops its rows by foreign-key cascade.
 */
export async function reindexAssetAttributes(
  manager: EntityManager,
  assetId: number,
  attributeIds: readonly number[],
  typeOf: ReadonlyMap<number, number>,
): Promise<void> {
  const ids = [...new Set(attributeIds)];
  if (ids.length === 0) return;
  for (const table of SEARCH_INDEX_TABLES.slice(1))
    await deleteRows(manager, table, await indexRows(manager, table, assetId, ids));
  const indexed = ids.filter((id) => typeOf.has(id));
  const rows: Array<{ attributeId: number | string; language: string; value: string }> =
    indexed.length === 0
      ? []
      : await manager
          .createQueryBuilder()
          .select('v.attribute_id', 'attributeId')
          .addSelect('v.language', 'language')
          .addSelect('v.value', 'value')
          .from('asset_attribute_values', 'v')
          .where('v.asset_id = :assetId AND v.attribute_id IN (:...indexed)', { assetId, indexed })
          .getRawMany();
  const values = rows.map((row) => ({ ...row, typeId: typeOf.get(Number(row.attributeId)) ?? 0 }));
  const wanted = tokenRows(
    values.map((row) => ({
      assetId,
      attributeId: Number(row.attributeId),
      typeId: row.typeId,
      value: row.value,
    })),
  );
  // Tokens: only the rows that change (a new file with the same words writes none).
  const keyOf = (token: unknown, attributeId: unknown): string => `${String(token)} ${Number(attributeId)}`;
  const existing = await indexRows(manager, 'asset_search_tokens', assetId, ids);
  const kept = new Set(wanted.map(([token, , attributeId]) => keyOf(token, attributeId)));
  const had = new Set(existing.map((row) => keyOf(row.token, row.attribute_id)));
  await deleteRows(
    manager,
    'asset_search_tokens',
    existing.filter((row) => !kept.has(keyOf(row.token, row.attribute_id))),
  );
  const tokens = wanted.filter(([token, , attributeId]) => !had.has(keyOf(token, attributeId)));
  for (let start = 0; start < tokens.length; start += INSERT_BATCH) {
    await manager
      .createQueryBuilder()
      .insert()
      .into('asset_search_tokens', ['token', 'asset_id', 'attribute_id'])
      .values(
        tokens
          .slice(start, start + INSERT_BATCH)
          .map(([token, asset, attributeId]) => ({ token, asset_id: asset, attribute_id: attributeId })),
      )
      .execute();
  }
  const numbers = values
    .filter((row) => row.typeId === AttributeType.Numeric && row.language === '')
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
  const texts = values
    .filter((row) => row.typeId !== AttributeType.Numeric && row.language === '')
    .map((row) => {
      // Characters as both databases count them (code points), not UTF-16 units.
      const characters = [...row.value];
      return {
        attribute_id: Number(row.attributeId),
        asset_id: assetId,
        value: characters.slice(0, SORT_TEXT_LENGTH).join(''),
        complete: characters.length <= SORT_TEXT_LENGTH,
      };
    });
  if (texts.length > 0) {
    await manager
      .createQueryBuilder()
      .insert()
      .into('asset_sort_texts', ['attribute_id', 'asset_id', 'value', 'complete'])
      .values(texts)
      .execute();
  }
}
