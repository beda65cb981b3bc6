import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { cascadeTo, column } from './columns';

/** AttributeType.Numeric when this migration was written (migrations do not follow later renames). */
const NUMERIC_TYPE = 8;

/**
 * A typed, ordered copy of the numeric attribute values (default language), so that a search sorted by
 * a number can walk `(attribute_id, value, asset_id)` in order and stop after one page instead of
 * reading and sorting the value of every match. Kept in step by the assets write path in the same
 * transaction as the values (see reindexAssetAttributes); deleting an asset or an attribute drops its
 * rows by cascade.
 */
export class AssetSortNumbers1732291200000 implements MigrationInterface {
  name = 'AssetSortNumbers1732291200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.driver.options.type === 'mysql';
    await queryRunner.createTable(
      new Table({
        name: 'asset_sort_numbers',
        columns: [
          column.int('asset_id', { isPrimary: true }),
          column.int('attribute_id', { isPrimary: true }),
          { name: 'value', type: mysql ? 'double' : 'real' },
        ],
        indices: [
          { name: 'IDX_asset_sort_numbers_order', columnNames: ['attribute_id', 'value', 'asset_id'] },
        ],
        foreignKeys: [cascadeTo('asset_id', 'assets'), cascadeTo('attribute_id', 'attributes')],
      }),
    );
    await queryRunner.query(
      'INSERT INTO asset_sort_numbers (asset_id, attribute_id, value) ' +
        `SELECT v.asset_id, v.attribute_id, CAST(v.value AS ${mysql ? 'DOUBLE' : 'REAL'}) ` +
        'FROM asset_attribute_values v JOIN attributes at ON at.id = v.attribute_id ' +
        `WHERE at.type_id = ? AND v.language = ''`,
      [NUMERIC_TYPE],
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('asset_sort_numbers');
  }
}
