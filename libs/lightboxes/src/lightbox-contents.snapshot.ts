import { Injectable } from '@nestjs/common';
import { AssetSnapshotPart, captureRows, restoreRows, SnapshotRows } from '@dam/assets';
import { EntityManager, In } from 'typeorm';
import { LightboxAssetEntity } from './entities/lightbox-asset.entity';
import { LightboxEntity } from './entities/lightbox.entity';

/** The trash's part of lightboxes: the asset's memberships, back in the lightboxes that still exist. */
@Injectable()
export class LightboxContentsSnapshot implements AssetSnapshotPart {
  readonly name = 'lightboxes';

  capture(manager: EntityManager, assetId: number): Promise<SnapshotRows> {
    return captureRows(manager, LightboxAssetEntity, { assetId });
  }

  async restore(manager: EntityManager, _assetId: number, rows: SnapshotRows): Promise<void> {
    if (rows.length === 0) return;
    const lightboxes = await manager.getRepository(LightboxEntity).find({
      select: { id: true },
      where: { id: In(rows.map((row) => Number(row.lightboxId))) },
    });
    const existing = new Set(lightboxes.map((lightbox) => lightbox.id));
    await restoreRows(
      manager,
      LightboxAssetEntity,
      rows.filter((row) => existing.has(Number(row.lightboxId))),
    );
  }
}
