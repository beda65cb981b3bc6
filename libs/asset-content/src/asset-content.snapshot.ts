import { Injectable } from '@nestjs/common';
import { AssetContentWrites, AssetSnapshotPart, captureRows, restoreRows, SnapshotRows } from '@dam/assets';
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

  constructor(private readonly assets: AssetContentWrites) {}

  async capture(manager: EntityManager, assetId: number): Promise<SnapshotRows> {
    return [
      ...(await captureRows(manager, AssetFileEntity, { assetId })).map((row) => ({ ...row, table: 'file' })),
      ...(await captureRows(manager, AssetRenditionEntity, { assetId })).map((row) => ({
        ...row,
        table: 'rendition',
      })),
    ];
  }

  async restore(manager: EntityManager, assetId: number, rows: SnapshotRows): Promise<void> {
    const files = rowsOf(rows, 'file');
    await restoreRows(manager, AssetFileEntity, files);
    await restoreRows(manager, AssetRenditionEntity, rowsOf(rows, 'rendition'));
    // A snapshot taken before assets.content_sha256 existed restores the asset row without it.
    const current = files.find((row) => row.isCurrent === true);
    if (typeof current?.sha256 === 'string')
      await this.assets.setContentDigest(manager, assetId, current.sha256);
  }

  objectKeys(rows: SnapshotRows): string[] {
    return rows.map((row) => row.storageKey).filter((key): key is string => typeof key === 'string');
  }
}

function rowsOf(rows: SnapshotRows, table: string): SnapshotRows {
  return rows.filter((row) => row.table === table).map(({ table: _table, ...row }) => row);
}
