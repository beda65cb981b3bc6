import { MigrationInterface, QueryRunner, Table, TableForeignKeyOptions } from 'typeorm';
import { column } from './columns';

const cascadeTo = (columnName: string, table: string): TableForeignKeyOptions => ({
  columnNames: [columnName],
  referencedTableName: table,
  referencedColumnNames: ['id'],
  onDelete: 'CASCADE',
});

/**
 * Checkouts (one row per checked-out asset: the primary key makes a race to check out have one winner)
 * and lightboxes with their assets. Deleting an asset, a user or a lightbox leaves no dangling rows.
 *
 * Lightbox names are unique per user through `name_key`, the SHA-256 (hex) of the normalised name, so
 * that both databases compare names the same way (byte for byte): a unique index on `name` itself
 * would be case- and accent-insensitive under MySQL's utf8mb4_unicode_ci but binary on SQLite.
 */
export class CheckoutLightboxes1732276800000 implements MigrationInterface {
  name = 'CheckoutLightboxes1732276800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'asset_checkouts',
        columns: [
          column.int('asset_id', { isPrimary: true }),
          column.int('user_id'),
          column.datetime('checked_out_at'),
        ],
        indices: [{ columnNames: ['user_id'] }],
        foreignKeys: [cascadeTo('asset_id', 'assets'), cascadeTo('user_id', 'users')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'lightboxes',
        columns: [
          column.id(),
          column.int('user_id'),
          column.string('name'),
          column.string('name_key', { length: '64' }),
          column.text('description', { isNullable: true }),
          column.createdAt(),
          column.updatedAt(),
        ],
        uniques: [{ columnNames: ['user_id', 'name_key'] }],
        foreignKeys: [cascadeTo('user_id', 'users')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'lightbox_assets',
        columns: [
          column.int('lightbox_id', { isPrimary: true }),
          column.int('asset_id', { isPrimary: true }),
          column.datetime('added_at'),
        ],
        indices: [{ columnNames: ['asset_id'] }],
        foreignKeys: [cascadeTo('lightbox_id', 'lightboxes'), cascadeTo('asset_id', 'assets')],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['lightbox_assets', 'lightboxes', 'asset_checkouts']) {
      await queryRunner.dropTable(table);
    }
  }
}
