import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { cascadeTo, column } from './columns';

/**
 * What assets hold beyond their core row: attribute values (per language: '' is the default-language
 * or language-neutral value), edits awaiting approval, and parent assets.
 */
export class AssetAttributes1732269600000 implements MigrationInterface {
  name = 'AssetAttributes1732269600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'asset_attribute_values',
        columns: [
          column.int('asset_id', { isPrimary: true }),
          column.int('attribute_id', { isPrimary: true }),
          column.string('language', { length: '16', isPrimary: true }),
          column.text('value'),
        ],
        indices: [{ columnNames: ['attribute_id'] }],
        foreignKeys: [cascadeTo('asset_id', 'assets'), cascadeTo('attribute_id', 'attributes')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'asset_pending_edits',
        columns: [
          column.int('asset_id', { isPrimary: true }),
          column.int('edited_by_user_id', { isNullable: true }),
          // JSON of the changes awaiting approval; merged when the asset is edited again before approval.
          column.text('changes'),
          column.createdAt(),
          column.updatedAt(),
        ],
        foreignKeys: [
          cascadeTo('asset_id', 'assets'),
          {
            columnNames: ['edited_by_user_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'SET NULL',
          },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'asset_parents',
        columns: [column.int('asset_id', { isPrimary: true }), column.int('parent_id', { isPrimary: true })],
        indices: [{ columnNames: ['parent_id'] }],
        foreignKeys: [cascadeTo('asset_id', 'assets'), cascadeTo('parent_id', 'assets')],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['asset_parents', 'asset_pending_edits', 'asset_attribute_values']) {
      await queryRunner.dropTable(table);
    }
  }
}
