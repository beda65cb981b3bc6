import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { column } from './columns';

/**
 * Asset content (DESIGN §7).
 * - `asset_files`: every stored file of an asset. At most one is current (`is_current`), at most one
 *   awaits approval (`is_pending`, with `as_new_version` telling whether approving it keeps the
 *   current file as an earlier version), the others are earlier versions. `storage_key` is
 *   `assets/{assetId}/{uuid}`, never a client name.
 * - `asset_renditions`: generated JPEGs (thumbnail, preview, display, large) of the current file.
 */
export class AssetContent1732287600000 implements MigrationInterface {
  name = 'AssetContent1732287600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const cascade = {
      columnNames: ['asset_id'],
      referencedTableName: 'assets',
      referencedColumnNames: ['id'],
      onDelete: 'CASCADE',
    };
    await queryRunner.createTable(
      new Table({
        name: 'asset_files',
        columns: [
          column.id(),
          column.int('asset_id'),
          column.string('storage_key'),
          column.string('original_filename'),
          column.string('content_type', { length: '128' }),
          column.bigint('size'),
          column.string('sha256', { length: '64' }),
          column.int('version'),
          column.boolean('is_current', false),
          column.boolean('is_pending', false),
          column.boolean('as_new_version', false),
          column.int('uploaded_by_user_id', { isNullable: true }),
          column.createdAt(),
        ],
        indices: [{ columnNames: ['asset_id', 'version'] }],
        foreignKeys: [
          cascade,
          {
            columnNames: ['uploaded_by_user_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'SET NULL',
          },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'asset_renditions',
        columns: [
          column.int('asset_id', { isPrimary: true }),
          column.string('kind', { length: '16', isPrimary: true }),
          column.string('storage_key'),
          column.string('content_type', { length: '128' }),
          column.int('width'),
          column.int('height'),
          column.int('source_file_id'),
          column.createdAt(),
        ],
        foreignKeys: [cascade],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('asset_renditions');
    await queryRunner.dropTable('asset_files');
  }
}
