import { MigrationInterface, QueryRunner, TableColumn, TableIndex } from 'typeorm';
import { column } from './columns';

/**
 * `assets.content_sha256`: the SHA-256 (lower-case hex) of the asset's current file, NULL without content,
 * kept by the content area in the transaction of every switch of the current file (AssetContentWrites).
 * Indexed, so that finding the assets whose current content has a digest (`contentSha256` in search, the
 * duplicate check of a content upload) reads the index, not every asset. Filled here from the current
 * files an existing library holds.
 */
export class AssetContentDigests1732348800000 implements MigrationInterface {
  name = 'AssetContentDigests1732348800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'assets',
      new TableColumn(column.string('content_sha256', { length: '64', isNullable: true })),
    );
    await queryRunner.query(
      'UPDATE assets SET content_sha256 = ' +
        '(SELECT f.sha256 FROM asset_files f WHERE f.asset_id = assets.id AND f.is_current = 1)',
    );
    await queryRunner.createIndex(
      'assets',
      new TableIndex({ name: 'IDX_assets_content_sha256', columnNames: ['content_sha256'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('assets', 'IDX_assets_content_sha256');
    await queryRunner.dropColumn('assets', 'content_sha256');
  }
}
