import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AssetContentWrites } from '@dam/assets';
import { InTransaction } from '@dam/events';
import { ObjectDeletions } from '@dam/storage';
import { DataSource, EntityManager, In, MoreThan } from 'typeorm';
import { AssetFileEntity } from './entities/asset-file.entity';
import { AssetRenditionEntity } from './entities/asset-rendition.entity';

/** A file already stored, about to be recorded. */
export interface NewFile {
  storageKey: string;
  originalFilename: string;
  contentType: string;
  size: number;
  sha256: string;
  uploadedByUserId: number | null;
}

/** A value written with the switch (read-only file attributes, embedded data). */
export interface FileValue {
  attributeId: number;
  value: string;
}

/** What the switch to a new current file writes on the asset besides the file row. */
export interface SwitchFacts {
  assetType: string;
  values: FileValue[];
}

/**
 * The outcome of a committed switch: the new file, and objects no row points at any more. Those are
 * queued in ObjectDeletions in the switch's transaction; the caller asks for their deletion after the
 * commit (`ObjectDeletions.deleteSoon`), and the queue retries any that fail.
 */
export interface Switched {
  fileId: number;
  obsoleteKeys: string[];
}

/**
 * The files and renditions of assets. Every switch of the current file happens in one transaction that
 * first writes the asset row through AssetContentWrites (locking it, so concurrent uploads to one asset
 * queue up); the asset facts a file implies (type, values, content pending) commit with it.
 */
@Injectable()
export class AssetFilesRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly assets: AssetContentWrites,
    private readonly deletions: ObjectDeletions,
  ) {}

  async current(assetId: number): Promise<AssetFileEntity | null> {
    return this.files().findOneBy({ assetId, isCurrent: true });
  }

  async version(assetId: number, version: number): Promise<AssetFileEntity | null> {
    return this.files().findOneBy({ assetId, version, isPending: false });
  }

  /** The current file and the earlier versions, oldest first. */
  async versions(assetId: number): Promise<AssetFileEntity[]> {
    return this.files().find({ where: { assetId, isPending: false }, order: { version: 'ASC' } });
  }

  /** Makes `file` the current one; undefined when the asset no longer exists. */
  async switchTo(
    assetId: number,
    file: NewFile,
    keepPrevious: boolean,
    facts: SwitchFacts,
    within?: InTransaction,
  ): Promise<Switched | undefined> {
    return this.dataSource.transaction(async (manager) => {
      if (!(await this.lockAsset(manager, assetId, facts.assetType))) return undefined;
      const switched = await this.switchLocked(
        manager,
        assetId,
        { ...file, asNewVersion: keepPrevious },
        facts,
      );
      await within?.(manager, assetId);
      return switched;
    });
  }

  /** Stores `file` as awaiting approval, replacing an earlier pending one; undefined when the asset is gone. */
  async storePending(assetId: number, file: NewFile, asNewVersion: boolean): Promise<Switched | undefined> {
    return this.dataSource.transaction(async (manager) => {
      if (!(await this.lockAsset(manager, assetId))) return undefined;
      const files = manager.getRepository(AssetFileEntity);
      const earlier = await files.findBy({ assetId, isPending: true });
      if (earlier.length > 0) await files.delete({ id: In(earlier.map((row) => row.id)) });
      const saved = await files.save(
        Object.assign(new AssetFileEntity(), {
          ...file,
          assetId,
          version: 0,
          isCurrent: false,
          isPending: true,
          asNewVersion,
          createdAt: new Date(),
        }),
      );
      await this.assets.setContentPending(manager, assetId, true);
      const obsoleteKeys = earlier.map((row) => row.storageKey);
      await this.deletions.enqueue(manager, obsoleteKeys);
      return { fileId: saved.id, obsoleteKeys };
    });
  }

  /** The file awaiting approval, if any. */
  async pending(
    assetId: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<AssetFileEntity | null> {
    return manager.getRepository(AssetFileEntity).findOneBy({ assetId, isPending: true });
  }

  /** Inside the approval transaction (the asset row is already locked): the pending file becomes current. */
  async promotePending(
    manager: EntityManager,
    pending: AssetFileEntity,
    facts: SwitchFacts,
  ): Promise<Switched> {
    await manager.getRepository(AssetFileEntity).delete({ id: pending.id });
    await this.lockAsset(manager, pending.assetId, facts.assetType);
    await this.assets.setContentPending(manager, pending.assetId, false);
    const file = {
      storageKey: pending.storageKey,
      originalFilename: pending.originalFilename,
      contentType: pending.contentType,
      size: pending.size,
      sha256: pending.sha256,
      uploadedByUserId: pending.uploadedByUserId,
      asNewVersion: pending.asNewVersion,
    };
    return this.switchLocked(manager, pending.assetId, file, facts);
  }

  async rendition(assetId: number, kind: string): Promise<AssetRenditionEntity | null> {
    return this.dataSource
      .getRepository(AssetRenditionEntity)
      .findOneBy({ assetId, kind: kind as AssetRenditionEntity['kind'] });
  }

  /**
   * Records renditions of `sourceFileId` when it is still the asset's current file. Returns the keys no
   * row points at: the replaced renditions, or the new ones when the file was replaced meanwhile.
   */
  async saveRenditions(
    assetId: number,
    sourceFileId: number,
    rows: AssetRenditionEntity[],
  ): Promise<string[]> {
    return this.dataSource.transaction(async (manager) => {
      if (!(await this.lockAsset(manager, assetId))) return rows.map((row) => row.storageKey);
      const current = await manager.getRepository(AssetFileEntity).findOneBy({ assetId, isCurrent: true });
      if (current?.id !== sourceFileId) return rows.map((row) => row.storageKey);
      const renditions = manager.getRepository(AssetRenditionEntity);
      const replaced = await renditions.findBy({ assetId, kind: In(rows.map((row) => row.kind)) });
      await renditions.delete({ assetId, kind: In(rows.map((row) => row.kind)) });
      await renditions.insert(rows);
      return replaced.map((row) => row.storageKey);
    });
  }

  /** Files (current, pending and earlier versions) with an id above `afterId`, by id: what verify-integrity reads. */
  async filesAfter(afterId: number, limit: number): Promise<AssetFileEntity[]> {
    return this.files().find({
      select: { id: true, assetId: true, storageKey: true, size: true, sha256: true },
      where: { id: MoreThan(afterId) },
      order: { id: 'ASC' },
      take: limit,
    });
  }

  /** Current files with an id above `afterId`, by id. */
  async currentFilesAfter(afterId: number, limit: number): Promise<AssetFileEntity[]> {
    return this.files().find({
      where: { id: MoreThan(afterId), isCurrent: true },
      order: { id: 'ASC' },
      take: limit,
    });
  }

  /** The renditions of `assetIds`. */
  async renditionsOf(assetIds: number[]): Promise<AssetRenditionEntity[]> {
    if (assetIds.length === 0) return [];
    return this.dataSource.getRepository(AssetRenditionEntity).findBy({ assetId: In(assetIds) });
  }

  /** Which of `keys` a file row refers to (asked by the orphan sweep). */
  async referencedFileKeys(keys: string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await this.files().find({ select: { storageKey: true }, where: { storageKey: In(keys) } });
    return new Set(rows.map((row) => row.storageKey));
  }

  /** Which of `keys` a rendition row refers to (asked by the orphan sweep). */
  async referencedRenditionKeys(keys: string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await this.dataSource
      .getRepository(AssetRenditionEntity)
      .find({ select: { storageKey: true }, where: { storageKey: In(keys) } });
    return new Set(rows.map((row) => row.storageKey));
  }

  /** Every key a file row refers to, read by id in pages. */
  async *fileKeys(pageSize = 500): AsyncGenerator<string> {
    for (let afterId = 0; ;) {
      const rows = await this.files().find({
        select: { id: true, storageKey: true },
        where: { id: MoreThan(afterId) },
        order: { id: 'ASC' },
        take: pageSize,
      });
      for (const row of rows) yield row.storageKey;
      if (rows.length < pageSize) return;
      afterId = rows[rows.length - 1].id;
    }
  }

  /** Every key a rendition row refers to, read by asset in pages. */
  async *renditionKeys(pageSize = 200): AsyncGenerator<string> {
    for (let afterAssetId = 0; ;) {
      const assets: Array<{ assetId: number | string }> = await this.dataSource
        .getRepository(AssetRenditionEntity)
        .createQueryBuilder('r')
        .select('r.asset_id', 'assetId')
        .where('r.asset_id > :afterAssetId', { afterAssetId })
        .groupBy('r.asset_id')
        .orderBy('r.asset_id', 'ASC')
        .limit(pageSize)
        .getRawMany();
      const ids = assets.map((row) => Number(row.assetId));
      for (const row of await this.renditionsOf(ids)) yield row.storageKey;
      if (ids.length < pageSize) return;
      afterAssetId = ids[ids.length - 1];
    }
  }

  private async switchLocked(
    manager: EntityManager,
    assetId: number,
    file: NewFile & { asNewVersion: boolean },
    facts: SwitchFacts,
  ): Promise<Switched> {
    const files = manager.getRepository(AssetFileEntity);
    const obsoleteKeys: string[] = [];
    const current = await files.findOneBy({ assetId, isCurrent: true });
    const latest: { max: number | string | null } | undefined = await files
      .createQueryBuilder('f')
      .select('MAX(f.version)', 'max')
      .where('f.asset_id = :assetId', { assetId })
      .getRawOne();
    let version = Number(latest?.max ?? 0) + 1;
    if (current !== null && file.asNewVersion) {
      await files.update({ id: current.id }, { isCurrent: false });
    } else if (current !== null) {
      await files.delete({ id: current.id });
      obsoleteKeys.push(current.storageKey);
      version = current.version;
    }
    const saved = await files.save(
      Object.assign(new AssetFileEntity(), {
        ...file,
        assetId,
        version,
        isCurrent: true,
        isPending: false,
        asNewVersion: false,
        createdAt: new Date(),
      }),
    );
    const renditions = manager.getRepository(AssetRenditionEntity);
    obsoleteKeys.push(...(await renditions.findBy({ assetId })).map((rendition) => rendition.storageKey));
    await renditions.delete({ assetId });
    await this.assets.applyEmbeddedValues(manager, assetId, facts.values);
    await this.assets.setContentDigest(manager, assetId, file.sha256);
    await this.deletions.enqueue(manager, obsoleteKeys);
    return { fileId: saved.id, obsoleteKeys };
  }

  /**
   * Writes the asset row (type and modification time when given), which locks it until commit. The write
   * comes before any plain read: on MySQL (REPEATABLE READ) the first plain read fixes the snapshot the
   * transaction sees, and one taken before the lock would hide the files of the upload it queued behind.
   */
  private async lockAsset(manager: EntityManager, assetId: number, type?: string): Promise<boolean> {
    if (type === undefined) return this.assets.lock(manager, assetId);
    return this.assets.setContentType(manager, assetId, type);
  }

  private files() {
    return this.dataSource.getRepository(AssetFileEntity);
  }
}
