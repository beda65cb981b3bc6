import { Injectable } from '@nestjs/common';
import { AssetSnapshotPart, captureRows, restoreRows, SnapshotRows } from '@dam/assets';
import { EntityManager } from 'typeorm';
import { AssetFileEntity } from './entities/asset-file.entity';
import { AssetRenditionEntity } from './entities/asset-rendition.entity';

/**
 * The trash's part of asset content: the asset's files (current, pending and earlier versions) and its
 * renditions, with their ids; their objects stay where they are until the trashed asset is purged.
 */
@Injectable()
export class AssetContentSnapshot implements AssetSnapshotPart {
  readonly name = 'asset-content';

  async capture(manager: EntityManager, assetId: number): Promise<SnapshotRows> {
    return [
      ...(await captureRows(manager, AssetFileEntity, { assetId })).map((row) => ({ ...row, table: 'file' })),
      ...(await captureRows(manager, AssetRenditionEntity, { assetId })).map((row) => ({
        ...row,
        table: 'rendition',
      })),
    ];
  }

  async restore(manager: EntityManager, _assetId: number, rows: SnapshotRows): Promise<void> {
    await restoreRows(manager, AssetFileEntity, rowsOf(rows, 'file'));
    await restoreRows(manager, AssetRenditionEntity, rowsOf(rows, 'rendition'));
  }

  objectKeys(rows: SnapshotRows): string[] {
    return rows.map((row) => row.storageKey).filter((key): key is string => typeof key === 'string');
  }
}

function rowsOf(rows: SnapshotRows, table: string): SnapshotRows {
  return rows.filter((row) => row.table === table).map(({ table: _table, ...row }) => row);
}
