import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * `assets.version`: raised by every transaction that writes an asset (metadata, access levels,
 * categories, parents, approval, content), since each first writes the asset row. The asset's ETag
 * starts with it, and `If-Match` on PUT and DELETE compares it (412 when stale).
 */
export class AssetVersions1732314000000 implements MigrationInterface {
  name = 'AssetVersions1732314000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'assets',
      new TableColumn({ name: 'version', type: 'integer', default: 1, isNullable: false }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('assets', 'version');
  }
}
