import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, LessThanOrEqual } from 'typeorm';
import { AssetSnapshot } from './asset-snapshots';
import { TrashedAssetEntity, TrashedAssetObjectEntity } from './trashed-asset.entity';

/** A trashed asset as the list shows it. */
export type TrashedAsset = Omit<TrashedAssetEntity, 'snapshot'>;

/** A new row of the trash. */
export interface NewTrashedAsset extends Omit<TrashedAsset, 'id'> {
  snapshot: AssetSnapshot;
  objectKeys: string[];
}

/** A trashed asset taken out of the trash, with the objects its rows refer to. */
export interface TakenAsset extends TrashedAsset {
  objectKeys: string[];
}

const INSERT_CHUNK = 200;

/** `trashed_assets` and `trashed_asset_objects`. */
@Injectable()
export class TrashRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** In the transaction that deletes the asset. */
  async keep(manager: EntityManager, trashed: NewTrashedAsset): Promise<void> {
    const { snapshot, objectKeys, ...row } = trashed;
    const saved = await manager
      .getRepository(TrashedAssetEntity)
      .save(Object.assign(new TrashedAssetEntity(), { ...row, snapshot: JSON.stringify(snapshot) }));
    await this.count(manager, +1);
    const keys = [...new Set(objectKeys)];
    for (let start = 0; start < keys.length; start += INSERT_CHUNK) {
      await manager
        .getRepository(TrashedAssetObjectEntity)
        .insert(
          keys.slice(start, start + INSERT_CHUNK).map((storageKey) => ({ trashId: saved.id, storageKey })),
        );
    }
  }

  /**
   * Newest first: read backwards along the `deleted_at` index (whose entries end with the id), stopping
   * at the page; the total is the tally, not a count of the trash.
   */
  async page(offset: number, limit: number): Promise<{ items: TrashedAsset[]; total: number }> {
    const [items, tally] = await Promise.all([
      this.dataSource
        .getRepository(TrashedAssetEntity)
        .find({ order: { deletedAt: 'DESC', id: 'DESC' }, skip: offset, take: limit }),
      this.dataSource.query<Array<{ trashed: number | string }>>(
        'SELECT trashed FROM trash_tally WHERE id = 1',
      ),
    ]);
    return { items, total: Number(tally[0]?.trashed ?? 0) };
  }

  async find(id: number): Promise<TrashedAsset | null> {
    return this.dataSource.getRepository(TrashedAssetEntity).findOneBy({ id });
  }

  /** The kept rows of a trashed asset, or undefined when it is gone (restored or purged). */
  async snapshot(id: number): Promise<AssetSnapshot | undefined> {
    const row = await this.dataSource
      .getRepository(TrashedAssetEntity)
      .findOne({ select: { id: true, snapshot: true }, where: { id } });
    return row === null ? undefined : (JSON.parse(row.snapshot) as AssetSnapshot);
  }

  /**
   * Takes the row out and runs `work` in the same transaction (a restore, or the queueing of a purge);
   * false when it was gone, or another transaction took it first: two restores, or a restore and a
   * purge, never both go ahead.
   */
  async withTaken(
    id: number,
    work: (manager: EntityManager, trashed: TakenAsset) => Promise<void>,
  ): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      // A write first: it locks the row (MySQL) or takes SQLite's write lock before anything is read.
      await manager.query('UPDATE trashed_assets SET id = id WHERE id = ?', [id]);
      const objects = manager.getRepository(TrashedAssetObjectEntity);
      const keys = (await objects.findBy({ trashId: id })).map((row) => row.storageKey);
      const row = await manager.getRepository(TrashedAssetEntity).findOneBy({ id });
      if (row === null) return false;
      await objects.delete({ trashId: id });
      const result = await manager.getRepository(TrashedAssetEntity).delete({ id });
      if ((result.affected ?? 0) === 0) return false;
      await this.count(manager, -1);
      await work(manager, { ...row, objectKeys: keys });
      return true;
    });
  }

  /**
   * THE rule of `trash_tally`: a row in or out of `trashed_assets` moves it by one, in the same
   * transaction (only keep and withTaken write that table). Taken before any row of `assets`' tallies,
   * in the trash as in the restore, so two such transactions wait for each other in one order.
   */
  private async count(manager: EntityManager, by: 1 | -1): Promise<void> {
    await manager.query('UPDATE trash_tally SET trashed = trashed + ? WHERE id = 1', [by]);
  }

  /** Ids whose time ran out at `now`, oldest first. */
  async expiredIds(now: Date, limit: number): Promise<number[]> {
    const rows = await this.dataSource.getRepository(TrashedAssetEntity).find({
      select: { id: true },
      where: { purgeAt: LessThanOrEqual(now) },
      order: { purgeAt: 'ASC', id: 'ASC' },
      take: limit,
    });
    return rows.map((row) => row.id);
  }

  /** Which of `keys` a trashed asset's rows refer to (the orphan sweep keeps them). */
  async referencedKeys(keys: string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await this.dataSource
      .getRepository(TrashedAssetObjectEntity)
      .find({ select: { storageKey: true }, where: { storageKey: In(keys) } });
    return new Set(rows.map((row) => row.storageKey));
  }
}
