import { Injectable } from '@nestjs/common';
import { AttributesCatalog } from '@dam/attributes';
import { StateConflict } from '@dam/errors';
import { LanguageService } from '@dam/i18n';
import { EntityManager, In } from 'typeorm';
import { attributeTypes, reindexAssetAttributes } from '../asset-search-index';
import { AssetAttributeValueEntity } from '../entities/asset-attribute-value.entity';
import {
  AssetAccessLevelEntity,
  AssetCategoryEntity,
  AssetParentEntity,
} from '../entities/asset-links.entity';
import { AssetPendingEditEntity } from '../entities/asset-pending-edit.entity';
import { AssetEntity } from '../entities/asset.entity';
import { AssetTalliesRepository } from '../queries/asset-tallies.repository';
import {
  AssetSnapshotParts,
  captureRows,
  restoreRows,
  SNAPSHOT_FORMAT,
  SnapshotRows,
} from './asset-snapshot';

/** The assets area's own rows of one asset. */
interface OwnRows {
  asset: SnapshotRows;
  accessLevels: SnapshotRows;
  categories: SnapshotRows;
  values: SnapshotRows;
  pendingEdits: SnapshotRows;
  /** Its links to its parents, and its children's links to it (they go by cascade too). */
  parents: SnapshotRows;
  children: SnapshotRows;
}

/** Every row of a trashed asset (`trashed_assets.snapshot`). */
export interface AssetSnapshot {
  format: number;
  asset: OwnRows;
  /** By AssetSnapshotPart name. */
  parts: Record<string, SnapshotRows>;
}

/**
 * Writes an asset's snapshot, and puts it back: the assets area's own rows, then every registered part.
 * The derived rows (search index, sort copies, sets of levels and categories, tallies) are not kept:
 * a restore writes them again through the writers that keep them for every edit.
 */
@Injectable()
export class AssetSnapshots {
  constructor(
    private readonly parts: AssetSnapshotParts,
    private readonly tallies: AssetTalliesRepository,
    private readonly catalog: AttributesCatalog,
    private readonly languages: LanguageService,
  ) {}

  /** Read in the transaction that is about to delete the asset (its row locked). */
  async capture(manager: EntityManager, assetId: number): Promise<AssetSnapshot> {
    const asset: OwnRows = {
      asset: await captureRows(manager, AssetEntity, { id: assetId }),
      accessLevels: await captureRows(manager, AssetAccessLevelEntity, { assetId }),
      categories: await captureRows(manager, AssetCategoryEntity, { assetId }),
      values: await captureRows(manager, AssetAttributeValueEntity, { assetId }),
      pendingEdits: await captureRows(manager, AssetPendingEditEntity, { assetId }),
      parents: await captureRows(manager, AssetParentEntity, { assetId }),
      children: await captureRows(manager, AssetParentEntity, { parentId: assetId }),
    };
    const parts: Record<string, SnapshotRows> = {};
    for (const part of this.parts.all()) parts[part.name] = await part.capture(manager, assetId);
    return { format: SNAPSHOT_FORMAT, asset, parts };
  }

  /** The stored objects a snapshot's rows refer to. */
  objectKeys(snapshot: AssetSnapshot): string[] {
    const keys = new Set<string>();
    for (const [name, rows] of Object.entries(snapshot.parts)) {
      for (const key of this.parts.get(name)?.objectKeys?.(rows) ?? []) keys.add(key);
    }
    return [...keys];
  }

  /**
   * What `restore` needs from other areas, asked outside its transaction (as every edit does): the types
   * of the attributes that still exist, for the search index.
   */
  async attributeTypesOf(snapshot: AssetSnapshot): Promise<Map<number, number>> {
    const ids = [...new Set(snapshot.asset.values.map((row) => Number(row.attributeId)))];
    return attributeTypes(this.catalog, this.languages.defaultLanguage, ids);
  }

  /**
   * Inserts every row again with the same keys, then the derived rows. A value of an attribute deleted
   * meanwhile, a link to an asset that is gone and a part's rows whose other end is gone are left out;
   * a level, category or user that is gone makes it a 409 (the caller's transaction rolls back).
   */
  async restore(
    manager: EntityManager,
    snapshot: AssetSnapshot,
    typeOf: ReadonlyMap<number, number>,
  ): Promise<number> {
    if (snapshot.format !== SNAPSHOT_FORMAT) {
      throw new StateConflict(
        `the trashed asset was kept in format ${snapshot.format}, not ${SNAPSHOT_FORMAT}`,
      );
    }
    const own = snapshot.asset;
    const [row] = own.asset;
    if (row === undefined) throw new StateConflict('the trashed asset has no asset row');
    const assetId = Number(row.id);
    // A new version: whatever an instance kept of the asset before it was trashed is read again.
    await restoreRows(manager, AssetEntity, [{ ...row, version: Number(row.version) + 1, levelSetId: null }]);
    await restoreRows(manager, AssetAccessLevelEntity, own.accessLevels);
    await restoreRows(manager, AssetCategoryEntity, own.categories);
    const values = own.values.filter((value) => typeOf.has(Number(value.attributeId)));
    await restoreRows(manager, AssetAttributeValueEntity, values);
    await restoreRows(manager, AssetPendingEditEntity, own.pendingEdits);
    await this.restoreLinks(manager, own);
    // Its tokens first: the tallies count its words as they are now.
    await reindexAssetAttributes(manager, assetId, [...typeOf.keys()], typeOf);
    await this.tallies.moved(manager, assetId, undefined);
    for (const part of this.parts.all()) {
      const rows = snapshot.parts[part.name];
      if (rows !== undefined) await part.restore(manager, assetId, rows);
    }
    return assetId;
  }

  /** Parent links whose other asset still exists; the children whose links come back change version. */
  private async restoreLinks(manager: EntityManager, own: OwnRows): Promise<void> {
    const others = [
      ...own.parents.map((link) => Number(link.parentId)),
      ...own.children.map((link) => Number(link.assetId)),
    ];
    if (others.length === 0) return;
    const existing = new Set(
      (
        await manager.getRepository(AssetEntity).find({ select: { id: true }, where: { id: In(others) } })
      ).map((asset) => asset.id),
    );
    await restoreRows(
      manager,
      AssetParentEntity,
      own.parents.filter((link) => existing.has(Number(link.parentId))),
    );
    const children = own.children.filter((link) => existing.has(Number(link.assetId)));
    await restoreRows(manager, AssetParentEntity, children);
    if (children.length > 0) {
      await manager
        .createQueryBuilder()
        .update(AssetEntity)
        .set({ version: () => 'version + 1' })
        .where('id IN (:...ids)', { ids: children.map((link) => Number(link.assetId)) })
        .execute();
    }
  }
}
