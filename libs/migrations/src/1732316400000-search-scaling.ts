import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

const TOKENS = 'asset_search_tokens';

/**
 * Indexes for search at a million assets and beyond (issue 20, bench/results/asset-search.md):
 * - `asset_search_tokens (asset_id, token)` replaces `(asset_id, attribute_id)`: the second word of an
 *   AND (`misoba nuba*`) is probed per asset of the first as one short range of this index instead of
 *   every token row of the asset. It still leads with the asset, which re-indexing an asset and the
 *   foreign key need.
 * - `assets (created_at, id)` and `assets (updated_at, id)`: a page sorted by date added or modified walks
 *   the index in order and stops after the page (and a keyset page starts where the last one ended)
 *   instead of sorting every match.
 */
export class SearchScaling1732316400000 implements MigrationInterface {
  name = 'SearchScaling1732316400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex(
      TOKENS,
      new TableIndex({ name: 'IDX_asset_search_tokens_asset_token', columnNames: ['asset_id', 'token'] }),
    );
    const old = await this.assetAttributeIndex(queryRunner);
    if (old !== undefined) await queryRunner.dropIndex(TOKENS, old);
    await queryRunner.createIndex(
      'assets',
      new TableIndex({ name: 'IDX_assets_created_at_id', columnNames: ['created_at', 'id'] }),
    );
    await queryRunner.createIndex(
      'assets',
      new TableIndex({ name: 'IDX_assets_updated_at_id', columnNames: ['updated_at', 'id'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('assets', 'IDX_assets_updated_at_id');
    await queryRunner.dropIndex('assets', 'IDX_assets_created_at_id');
    await queryRunner.createIndex(TOKENS, new TableIndex({ columnNames: ['asset_id', 'attribute_id'] }));
    await queryRunner.dropIndex(TOKENS, 'IDX_asset_search_tokens_asset_token');
  }

  private async assetAttributeIndex(queryRunner: QueryRunner): Promise<TableIndex | undefined> {
    const table = await queryRunner.getTable(TOKENS);
    return table?.indices.find(
      (index) =>
        index.columnNames.length === 2 &&
        index.columnNames[0] === 'asset_id' &&
        index.columnNames[1] === 'attribute_id',
    );
  }
}
