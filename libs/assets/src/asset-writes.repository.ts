import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { StateConflict, isForeignKeyViolation } from '@dam/platform';
import { DataSource, EntityManager } from 'typeorm';
import { AfterApproval, AssetApprovalSteps } from './asset-approval-steps';
import { AssetChanges, isEmpty, mergeChanges, parseStoredChanges } from './asset-changes';
import { reindexAssetAttributes } from './asset-search-index';
import { AssetCondition } from './assets.repository';
import { AssetAttributeValueEntity } from './entities/asset-attribute-value.entity';
import {
  AssetAccessLevelEntity,
  AssetCategoryEntity,
  AssetParentEntity,
} from './entities/asset-links.entity';
import { AssetPendingEditEntity } from './entities/asset-pending-edit.entity';
import { AssetEntity } from './entities/asset.entity';

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

/** Multi-row writes of assets (updates, approval) and the approval queues. */
@Injectable()
export class AssetWritesRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly approvalSteps: AssetApprovalSteps,
  ) {}

  async update(assetId: number, update: AssetUpdate): Promise<void> {
    await this.inTransaction(async (manager) => {
      const modified = !isEmpty(update.apply) || Object.keys(update.flags).length > 0;
      // Writing the asset row first also locks it, so concurrent merges of pending edits queue up.
      await this.touch(manager, assetId, update.flags, modified);
      await this.applyChanges(manager, assetId, update.apply);
      if (update.pending !== undefined) await this.storePending(manager, assetId, update.pending);
    });
  }

  /** Makes the asset live, applies its pending edits and runs the approval steps of other areas. */
  async approve(assetId: number): Promise<void> {
    let after: AfterApproval[] = [];
    await this.inTransaction(async (manager) => {
      await this.touch(manager, assetId, { uploadPending: false }, false);
      after = await this.approvalSteps.run(manager, assetId);
      const pendingEdits = manager.getRepository(AssetPendingEditEntity);
      const pending = await pendingEdits.findOneBy({ assetId });
      if (pending === null) return;
      const changes = parseStoredChanges(pending.changes);
      await this.applyChanges(manager, assetId, changes);
      await pendingEdits.delete({ assetId });
      if (!isEmpty(changes)) await this.touch(manager, assetId, {}, true);
    });
    for (const work of after) await work();
  }

  /** Ids of submitted assets awaiting upload approval that satisfy `condition`. */
  pendingUploadIds(condition: AssetCondition | undefined, page?: { offset: number; limit: number }) {
    return this.pendingIds('a.upload_pending = :pendingTrue AND a.submitted = :pendingTrue', condition, page);
  }

  /** Ids of assets with edits or a content file awaiting approval that satisfy `condition`. */
  pendingEditIds(condition: AssetCondition | undefined, page?: { offset: number; limit: number }) {
    return this.pendingIds(
      '(EXISTS (SELECT 1 FROM asset_pending_edits pe WHERE pe.asset_id = a.id) OR ' +
        'EXISTS (SELECT 1 FROM asset_files pf WHERE pf.asset_id = a.id AND pf.is_pending = :pendingTrue))',
      condition,
      page,
    );
  }

  private async pendingIds(
    where: string,
    condition: AssetCondition | undefined,
    page: { offset: number; limit: number } | undefined,
  ): Promise<{ ids: number[]; total: number }> {
    const query = this.dataSource
      .createQueryBuilder()
      .from('assets', 'a')
      .where(where, { pendingTrue: true });
    if (condition !== undefined) query.andWhere(condition.sql, condition.params);
    const countRow: { total: number | string } | undefined = await query
      .clone()
      .select('COUNT(*)', 'total')
      .getRawOne();
    query.select('a.id', 'id').orderBy('a.id', 'ASC');
    if (page !== undefined) query.offset(page.offset).limit(page.limit);
    const rows: Array<{ id: number | string }> = await query.getRawMany();
    return { ids: rows.map((row) => Number(row.id)), total: Number(countRow?.total ?? 0) };
  }

  private async touch(
    manager: EntityManager,
    assetId: number,
    flags: AssetFlags,
    modified: boolean,
  ): Promise<void> {
    const set: Partial<AssetEntity> = { ...flags };
    if (modified) set.updatedAt = new Date();
    if (Object.keys(set).length === 0) {
      await manager.query('UPDATE assets SET updated_at = updated_at WHERE id = ?', [assetId]);
      return;
    }
    await manager.getRepository(AssetEntity).update({ id: assetId }, set);
  }

  private async applyChanges(manager: EntityManager, assetId: number, changes: AssetChanges): Promise<void> {
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
