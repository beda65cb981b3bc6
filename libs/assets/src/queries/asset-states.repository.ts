import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { AssetEntity } from '../entities/asset.entity';
import { AssetRecord, AssetState, AttributeValue } from '../ports/asset-state';
import { hasPendingEdit } from '../rules/approval-state';
import { Id } from './query-sources';

/** An asset's state as the assets tables hold it (usernames come from the access area). */
export type StoredState = Omit<AssetState, 'addedByUsername'>;

/** The state of the assets of a page: their rows, links and values, from the main database. */
@Injectable()
export class AssetStatesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The state of each asset (in the order of `ids`), with values in the given storage languages only. */
  async states(ids: number[], languages: string[]): Promise<StoredState[]> {
    if (ids.length === 0) return [];
    const [assets, levels, categories, parents, values, pending] = await Promise.all([
      this.dataSource.getRepository(AssetEntity).findBy({ id: In(ids) }),
      this.links('asset_access_levels', 'access_level_id', ids),
      this.links('asset_categories', 'category_id', ids),
      this.links('asset_parents', 'parent_id', ids),
      this.values(ids, languages),
      this.links('asset_pending_edits', 'asset_id', ids),
    ]);
    const byId = new Map(assets.map((asset) => [asset.id, asset]));
    const valuesOf = new Map<number, AttributeValue[]>();
    for (const { assetId, attributeId, language, value } of values) {
      valuesOf.set(assetId, [...(valuesOf.get(assetId) ?? []), { attributeId, language, value }]);
    }
    const states: StoredState[] = [];
    for (const id of ids) {
      const asset = byId.get(id);
      if (asset === undefined) continue; // deleted between the id query and this one
      states.push({
        asset: toRecord(asset),
        accessLevelIds: levels.get(id) ?? [],
        categoryIds: categories.get(id) ?? [],
        parentIds: parents.get(id) ?? [],
        values: valuesOf.get(id) ?? [],
        hasPendingEdit: hasPendingEdit(asset, pending.has(id)),
      });
    }
    return states;
  }

  /**
   * The values of the assets in the languages, as plain rows (a page of 100 assets holds about 1,000:
   * read raw, not hydrated as entities).
   */
  private async values(
    ids: number[],
    languages: string[],
  ): Promise<Array<AttributeValue & { assetId: number }>> {
    const rows: Array<{ assetId: Id; attributeId: Id; language: string; value: string }> =
      await this.dataSource
        .createQueryBuilder()
        .select('v.asset_id', 'assetId')
        .addSelect('v.attribute_id', 'attributeId')
        .addSelect('v.language', 'language')
        .addSelect('v.value', 'value')
        .from('asset_attribute_values', 'v')
        .where('v.asset_id IN (:...ids)', { ids })
        .andWhere('v.language IN (:...languages)', { languages })
        .getRawMany();
    return rows.map((row) => ({
      assetId: Number(row.assetId),
      attributeId: Number(row.attributeId),
      language: row.language,
      value: row.value,
    }));
  }

  private async links(table: string, column: string, ids: number[]): Promise<Map<number, number[]>> {
    const rows: Array<{ assetId: Id; linked: Id }> = await this.dataSource
      .createQueryBuilder()
      .select('l.asset_id', 'assetId')
      .addSelect(`l.${column}`, 'linked')
      .from(table, 'l')
      .where('l.asset_id IN (:...ids)', { ids })
      .orderBy(`l.${column}`)
      .getRawMany();
    const result = new Map<number, number[]>();
    for (const row of rows) {
      const assetId = Number(row.assetId);
      result.set(assetId, [...(result.get(assetId) ?? []), Number(row.linked)]);
    }
    return result;
  }
}

export function toRecord(asset: AssetEntity): AssetRecord {
  return {
    id: asset.id,
    submitted: asset.submitted,
    uploadPending: asset.uploadPending,
    contentPending: asset.contentPending,
    archived: asset.archived,
    type: asset.type,
    contentSha256: asset.contentSha256,
    assetTypeId: asset.assetTypeId,
    addedByUserId: asset.addedByUserId,
    createdAt: asset.createdAt,
    updatedAt: asset.updatedAt,
    version: asset.version,
  };
}
