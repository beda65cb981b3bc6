import { Injectable } from '@nestjs/common';
import { AttributesCatalog } from '@dam/attributes';
import { LanguageService } from '@dam/i18n';
import { EntityManager } from 'typeorm';
import { attributeTypes, reindexAssetAttributes } from './asset-search-index';
import { AssetAttributeValueEntity } from './entities/asset-attribute-value.entity';
import { AssetEntity } from './entities/asset.entity';
import { AssetTalliesRepository } from './queries/asset-tallies.repository';
import { AssetWordTalliesRepository } from './queries/asset-word-tallies.repository';

/** A value the content area writes with a new file (read-only file attributes, embedded data). */
export interface EmbeddedValue {
  attributeId: number;
  value: string;
}

/**
 * What the content area writes on assets, inside ITS transaction (the caller's EntityManager), so a
 * file and the asset facts it implies commit together while only this area touches the assets tables.
 * Every method writes the asset row (or reads it `FOR UPDATE`) first, which locks it until commit: on
 * MySQL (REPEATABLE READ) the first plain read fixes the snapshot, and one taken before the lock would
 * hide the files of an upload queued behind it.
 */
@Injectable()
export class AssetContentWrites {
  constructor(
    private readonly catalog: AttributesCatalog,
    private readonly languages: LanguageService,
    private readonly words: AssetWordTalliesRepository,
    private readonly tallies: AssetTalliesRepository,
  ) {}

  /** Locks the asset row, raising its version (its ETag changes); false when the asset no longer exists. */
  async lock(manager: EntityManager, assetId: number): Promise<boolean> {
    await manager.query('UPDATE assets SET version = version + 1 WHERE id = ?', [assetId]);
    return manager.getRepository(AssetEntity).existsBy({ id: assetId });
  }

  /** Whether a new file awaits edit approval (part of `approved` and of the pending-edit queue). */
  async setContentPending(manager: EntityManager, assetId: number, pending: boolean): Promise<void> {
    await manager
      .getRepository(AssetEntity)
      .update({ id: assetId }, { contentPending: pending, version: () => 'version + 1' });
  }

  /**
   * The type from the new content (File, Image, ...); the asset counts as modified. False when gone. The
   * row is locked by reading its tallied state (as every write that moves the tallies does), since the
   * type facet's tallies count it by its type.
   */
  async setContentType(manager: EntityManager, assetId: number, type: string): Promise<boolean> {
    const before = await this.tallies.lockedState(manager, assetId);
    if (before === undefined) return false;
    await manager
      .getRepository(AssetEntity)
      .update({ id: assetId }, { type, updatedAt: new Date(), version: () => 'version + 1' });
    await this.tallies.moved(manager, assetId, before);
    return true;
  }

  /** The digest of the new current file: what `contentSha256` shows and searches (the row is locked). */
  async setContentDigest(manager: EntityManager, assetId: number, sha256: string): Promise<void> {
    await manager
      .getRepository(AssetEntity)
      .update({ id: assetId }, { contentSha256: sha256, version: () => 'version + 1' });
  }

  /** Writes default-language values and keeps the search index in step; the version goes up. */
  async applyEmbeddedValues(
    manager: EntityManager,
    assetId: number,
    values: readonly EmbeddedValue[],
  ): Promise<void> {
    await manager.query('UPDATE assets SET version = version + 1 WHERE id = ?', [assetId]);
    const words = await this.words.wordsOf(manager, assetId);
    const repository = manager.getRepository(AssetAttributeValueEntity);
    for (const { attributeId, value } of values) {
      await repository.upsert({ assetId, attributeId, language: '', value }, [
        'assetId',
        'attributeId',
        'language',
      ]);
    }
    const ids = values.map((value) => value.attributeId);
    const typeOf = await attributeTypes(this.catalog, this.languages.defaultLanguage, ids);
    await reindexAssetAttributes(manager, assetId, ids, typeOf);
    await this.words.reindexed(manager, assetId, words);
  }
}
