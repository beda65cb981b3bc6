import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AttributesCatalog } from '@dam/attributes';
import { isForeignKeyViolation } from '@dam/database';
import { StateConflict } from '@dam/errors';
import { InTransaction } from '@dam/events';
import { LanguageService } from '@dam/i18n';
import { DataSource, EntityManager, MoreThan } from 'typeorm';
import { AfterApproval, AssetApprovalSteps } from './asset-approval-steps';
import { AssetChanges, isEmpty, mergeChanges, parseStoredChanges } from './asset-changes';
import { attributeTypes, reindexAssetAttributes, SEARCH_INDEX_TABLES } from './asset-search-index';
import { AssetAttributeValueEntity } from './entities/asset-attribute-value.entity';
import {
  AssetAccessLevelEntity,
  AssetCategoryEntity,
  AssetParentEntity,
} from './entities/asset-links.entity';
import { AssetPendingEditEntity } from './entities/asset-pending-edit.entity';
import { AssetEntity } from './entities/asset.entity';
import { AssetTalliesRepository } from './queries/asset-tallies.repository';
import { AssetWords, AssetWordTalliesRepository } from './queries/asset-word-tallies.repository';

export interface AssetFlags {
  submitted?: boolean;
  uploadPending?: boolean;
  archived?: boolean;
}

/** One PUT: changes applied now, changes stored for approval, and flag changes, all in one transaction. */
export interface AssetUpdate {
  apply: AssetChanges;
  pending?: { editedByUserId: number; changes: AssetChanges };
  flags: AssetFlags;
}

/** Multi-row writes of assets: updates and approval. */
@Injectable()
export class AssetWritesRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly approvalSteps: AssetApprovalSteps,
    private readonly catalog: AttributesCatalog,
    private readonly languages: LanguageService,
    private readonly tallies: AssetTalliesRepository,
    private readonly words: AssetWordTalliesRepository,
  ) {}

  /** `within` runs last in the same transaction (the owner records its events there). */
  async update(assetId: number, update: AssetUpdate, within?: InTransaction): Promise<void> {
    const typeOf = await this.typesOf(update.apply);
    await this.inTransaction(async (manager) => {
      const modified = !isEmpty(update.apply) || Object.keys(update.flags).length > 0;
      // Reading the tallied state locks the asset row first, so concurrent merges of pending edits queue up.
      const tallied = await this.tallies.lockedState(manager, assetId);
      await this.touch(manager, assetId, update.flags, modified);
      await this.applyChanges(manager, assetId, update.apply, typeOf);
      if (update.pending !== undefined) await this.storePending(manager, assetId, update.pending);
      await this.tallies.moved(manager, assetId, tallied);
      await within?.(manager, assetId);
    });
  }

  /** Makes the asset live, applies its pending edits and runs the approval steps of other areas. */
  async approve(assetId: number, within?: InTransaction): Promise<void> {
    let after: AfterApproval[] = [];
    await this.inTransaction(async (manager) => {
      const tallied = await this.tallies.lockedState(manager, assetId);
      await this.touch(manager, assetId, { uploadPending: false }, false);
      after = await this.approvalSteps.run(manager, assetId);
      await within?.(manager, assetId);
      const pendingEdits = manager.getRepository(AssetPendingEditEntity);
      const pending = await pendingEdits.findOneBy({ assetId });
      if (pending !== null) {
        const changes = parseStoredChanges(pending.changes);
        await this.applyChanges(manager, assetId, changes, await this.typesOf(changes));
        await pendingEdits.delete({ assetId });
        if (!isEmpty(changes)) await this.touch(manager, assetId, {}, true);
      }
      await this.tallies.moved(manager, assetId, tallied);
    });
    for (const work of after) await work();
  }

  private async touch(
    manager: EntityManager,
    assetId: number,
    flags: AssetFlags,
    modified: boolean,
  ): Promise<void> {
    const set: Partial<AssetEntity> = { ...flags };
    if (modified) set.updatedAt = new Date();
    // Every write of an asset passes here (or AssetContentWrites.lock) first: its version goes up.
    if (Object.keys(set).length === 0) {
      await manager.query('UPDATE assets SET version = version + 1 WHERE id = ?', [assetId]);
      return;
    }
    await manager
      .getRepository(AssetEntity)
      .update({ id: assetId }, { ...set, version: () => 'version + 1' });
  }

  /** The attribute types the search index needs, asked of the attributes area. */
  private typesOf(changes: AssetChanges): Promise<Map<number, number>> {
    return attributeTypes(
      this.catalog,
      this.languages.defaultLanguage,
      changes.values.map((change) => change.attributeId),
    );
  }

  private async applyChanges(
    manager: EntityManager,
    assetId: number,
    changes: AssetChanges,
    typeOf: ReadonlyMap<number, number>,
  ): Promise<void> {
    const values = manager.getRepository(AssetAttributeValueEntity);
    for (const change of changes.values) {
      const key = { assetId, attributeId: change.attributeId, language: change.language };
      if (change.value === null) await values.delete(key);
      else await values.upsert({ ...key, value: change.value }, ['assetId', 'attributeId', 'language']);
    }
    await reindexAssetAttributes(
      manager,
      assetId,
      changes.values.map((change) => change.attributeId),
      typeOf,
    );
    if (changes.accessLevelIds !== undefined) {
      const repository = manager.getRepository(AssetAccessLevelEntity);
      await repository.delete({ assetId });
      await repository.insert(changes.accessLevelIds.map((accessLevelId) => ({ assetId, accessLevelId })));
    }
    if (changes.categoryIds !== undefined) {
      const repository = manager.getRepository(AssetCategoryEntity);
      await repository.delete({ assetId });
      if (changes.categoryIds.length > 0) {
        await repository.insert(changes.categoryIds.map((categoryId) => ({ assetId, categoryId })));
      }
    }
    if (changes.parentIds !== undefined) {
      const repository = manager.getRepository(AssetParentEntity);
      await repository.delete({ assetId });
      if (changes.parentIds.length > 0) {
        await repository.insert(changes.parentIds.map((parentId) => ({ assetId, parentId })));
      }
    }
  }

  private async storePending(
    manager: EntityManager,
    assetId: number,
    pending: { editedByUserId: number; changes: AssetChanges },
  ): Promise<void> {
    const repository = manager.getRepository(AssetPendingEditEntity);
    const existing = await repository.findOneBy({ assetId });
    const now = new Date();
    const changes =
      existing === null
        ? pending.changes
        : mergeChanges(parseStoredChanges(existing.changes), pending.changes);
    await repository.save(
      Object.assign(new AssetPendingEditEntity(), {
        assetId,
        editedByUserId: pending.editedByUserId,
        changes: JSON.stringify(changes),
        createdAt: existing?.createdAt ?? now,
        updatedAt: now,
      }),
    );
  }

  /** A level, category or parent removed since it was validated is a conflict, not a 500. */
  /** Asset ids above `afterId`, ascending: the batches of the search index rebuild. */
  async assetIdsAfter(afterId: number, limit: number): Promise<number[]> {
    const rows = await this.dataSource.getRepository(AssetEntity).find({
      select: { id: true },
      where: { id: MoreThan(afterId) },
      order: { id: 'ASC' },
      take: limit,
    });
    return rows.map((row) => row.id);
  }

  /**
   * Rebuilds the search index rows (SEARCH_INDEX_TABLES) of `assetIds` from their
   * attribute values, in one transaction that first writes the asset rows (locking them, so an edit of
   * one of them waits for the rebuild or the rebuild for it). Idempotent.
   */
  async rebuildSearchIndex(assetIds: number[]): Promise<void> {
    if (assetIds.length === 0) return;
    const attributeIdsOf = async (manager: EntityManager): Promise<Map<number, number[]>> => {
      const rows: Array<{ assetId: number | string; attributeId: number | string }> = await manager
        .createQueryBuilder()
        .select('v.asset_id', 'assetId')
        .addSelect('v.attribute_id', 'attributeId')
        .from('asset_attribute_values', 'v')
        .where('v.asset_id IN (:...assetIds)', { assetIds })
        .groupBy('v.asset_id')
        .addGroupBy('v.attribute_id')
        .getRawMany();
      const byAsset = new Map<number, number[]>();
      for (const row of rows) {
        const assetId = Number(row.assetId);
        byAsset.set(assetId, [...(byAsset.get(assetId) ?? []), Number(row.attributeId)]);
      }
      return byAsset;
    };
    // The attribute types come from the attributes area, outside the transaction (as for any edit).
    const before = await attributeIdsOf(this.dataSource.manager);
    const typeOf = await attributeTypes(this.catalog, this.languages.defaultLanguage, [
      ...new Set([...before.values()].flat()),
    ]);
    await this.dataSource.transaction(async (manager) => {
      await manager
        .createQueryBuilder()
        .update(AssetEntity)
        .set({ updatedAt: () => 'updated_at' })
        .where('id IN (:...assetIds)', { assetIds })
        .execute();
      const byAsset = await attributeIdsOf(manager);
      // The word tallies follow each asset's words from what they were to what the rebuild makes them.
      const words = new Map<number, AssetWords>();
      for (const assetId of assetIds) words.set(assetId, await this.words.wordsOf(manager, assetId));
      for (const table of SEARCH_INDEX_TABLES) {
        await manager
          .createQueryBuilder()
          .delete()
          .from(table)
          .where('asset_id IN (:...assetIds)', { assetIds })
          .execute();
      }
      for (const [assetId, attributeIds] of byAsset) {
        await reindexAssetAttributes(manager, assetId, attributeIds, typeOf);
      }
      for (const [assetId, before] of words) await this.words.reindexed(manager, assetId, before);
    });
  }

  private async inTransaction(work: (manager: EntityManager) => Promise<void>): Promise<void> {
    try {
      await this.dataSource.transaction(work);
    } catch (error) {
      if (isForeignKeyViolation(error)) {
        throw new StateConflict(
          'the asset refers to an access level, category or asset that no longer exists',
        );
      }
      throw error;
    }
  }
}
