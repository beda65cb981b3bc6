import { Injectable } from '@nestjs/common';
import { EntityManager, EntityTarget, FindOptionsWhere, ObjectLiteral } from 'typeorm';

/** The format of `trashed_assets.snapshot`; a restore refuses a snapshot of another format. */
export const SNAPSHOT_FORMAT = 1;

/** Rows of one table, as JSON holds them (dates as ISO strings). */
export type SnapshotRows = Array<Record<string, unknown>>;

/**
 * What one owner keeps of a trashed asset: its rows of the asset, read in the transaction that deletes
 * the asset, and put back with the same keys in the transaction that restores it. Each lib that owns
 * rows hanging off an asset (files and renditions, lightbox memberships) registers one part with
 * AssetSnapshotParts; the assets area keeps its own rows itself (AssetSnapshots).
 */
export interface AssetSnapshotPart {
  /** Its key in the snapshot's `parts`: unique, stable across versions (it is stored). */
  readonly name: string;
  capture(manager: EntityManager, assetId: number): Promise<SnapshotRows>;
  /** Runs after the asset's own rows are back; rows whose other end is gone meanwhile are left out. */
  restore(manager: EntityManager, assetId: number, rows: SnapshotRows): Promise<void>;
  /** The stored objects the rows refer to: owned by the trash until the asset is restored or purged. */
  objectKeys?(rows: SnapshotRows): string[];
}

/** Every registered part, in registration order (modules initialise lower floors first). */
@Injectable()
export class AssetSnapshotParts {
  private readonly parts = new Map<string, AssetSnapshotPart>();

  register(part: AssetSnapshotPart): void {
    if (this.parts.has(part.name)) throw new Error(`snapshot part ${part.name} is registered twice`);
    this.parts.set(part.name, part);
  }

  all(): AssetSnapshotPart[] {
    return [...this.parts.values()];
  }

  get(name: string): AssetSnapshotPart | undefined {
    return this.parts.get(name);
  }
}

/** The rows of `entity` matching `where`, as JSON-able objects (the entity's property names). */
export async function captureRows<T extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<T>,
  where: FindOptionsWhere<T>,
): Promise<SnapshotRows> {
  const rows = await manager.getRepository(entity).findBy(where);
  return rows.map((row) => JSON.parse(JSON.stringify(row)) as Record<string, unknown>);
}

/**
 * Inserts rows kept by captureRows again, with the same keys (date columns back to dates, as the entity
 * declares them).
 */
export async function restoreRows<T extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<T>,
  rows: SnapshotRows,
): Promise<void> {
  if (rows.length === 0) return;
  const repository = manager.getRepository(entity);
  const dates = repository.metadata.columns
    .filter((column) => column.type === 'datetime' || column.type === Date)
    .map((column) => column.propertyName);
  const entities = rows.map((row) => {
    const copy: Record<string, unknown> = { ...row };
    for (const name of dates) {
      const value = copy[name];
      if (typeof value === 'string') copy[name] = new Date(value);
    }
    return copy as T;
  });
  for (let start = 0; start < entities.length; start += 200) {
    await repository.insert(entities.slice(start, start + 200));
  }
}
