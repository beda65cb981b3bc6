import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { cascadeTo, column } from './columns';

/** AttributeType.Numeric when this migration was written (migrations do not follow later renames). */
const NUMERIC_TYPE = 8;

/** How many characters of a value the sort copy keeps (SORT_TEXT_LENGTH in the assets area). */
const LENGTH = 64;

/**
 * `asset_sort_texts`: the first 64 characters of every text value (default language) of an attribute
 * that sorts as text, clustered by `(attribute_id, asset_id)`, with `complete` saying whether that is
 * the whole value. A page sorted by a text attribute reads each match's key here instead of in
 * `asset_attribute_values`, whose values of every attribute share its pages: at 1M assets that table
 * (430 MB) does not fit MariaDB's stock 128 MiB buffer pool, and sorting the 16,051 matches of a word by
 * title read a page per match (1.2 s). Values longer than the copy are ordered by their full value among
 * those with the same first 64 characters. Kept in step by the assets write path in the transaction of
 * the values (reindexAssetAttributes); deleting an asset or an attribute drops its rows by cascade.
 *
 * `(attribute_id, value, asset_id)` lets a page of a text sort on MySQL walk the copies in order and stop
 * (SortWalkRepository.textWalkCandidates). MySQL: the copy has the collation of
 * `asset_attribute_values.value` (the connection's), so it orders as the values do. SQLite: WITHOUT
 * ROWID, so that the key is the table as in InnoDB.
 */
export class AssetSortTexts1732334400000 implements MigrationInterface {
  name = 'AssetSortTexts1732334400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.driver.options.type === 'mysql';
    if (mysql) {
      await queryRunner.createTable(
        new Table({
          name: 'asset_sort_texts',
          columns: [
            column.int('attribute_id', { isPrimary: true }),
            column.int('asset_id', { isPrimary: true }),
            column.string('value', {
              length: String(LENGTH),
              charset: 'utf8mb4',
              collation: 'utf8mb4_unicode_ci',
            }),
            column.boolean('complete', true),
          ],
          indices: [
            { name: 'IDX_asset_sort_texts_asset', columnNames: ['asset_id'] },
            { name: 'IDX_asset_sort_texts_order', columnNames: ['attribute_id', 'value', 'asset_id'] },
          ],
          foreignKeys: [cascadeTo('asset_id', 'assets'), cascadeTo('attribute_id', 'attributes')],
        }),
      );
    } else {
      await queryRunner.query(
        'CREATE TABLE "asset_sort_texts" ("attribute_id" integer NOT NULL, "asset_id" integer NOT NULL, ' +
          `"value" varchar(${LENGTH}) NOT NULL, "complete" boolean NOT NULL DEFAULT (1), ` +
          'PRIMARY KEY ("attribute_id", "asset_id"), ' +
          'FOREIGN KEY ("asset_id") REFERENCES "assets" ("id") ON DELETE CASCADE, ' +
          'FOREIGN KEY ("attribute_id") REFERENCES "attributes" ("id") ON DELETE CASCADE) WITHOUT ROWID',
      );
      await queryRunner.query('CREATE INDEX "IDX_asset_sort_texts_asset" ON "asset_sort_texts" ("asset_id")');
      await queryRunner.query(
        'CREATE INDEX "IDX_asset_sort_texts_order" ON "asset_sort_texts" ("attribute_id", "value", "asset_id")',
      );
    }
    const length = mysql ? 'CHAR_LENGTH' : 'LENGTH';
    await queryRunner.query(
      'INSERT INTO asset_sort_texts (attribute_id, asset_id, value, complete) ' +
        `SELECT v.attribute_id, v.asset_id, SUBSTR(v.value, 1, ${LENGTH}), ` +
        `CASE WHEN ${length}(v.value) <= ${LENGTH} THEN 1 ELSE 0 END ` +
        'FROM asset_attribute_values v JOIN attributes at ON at.id = v.attribute_id ' +
        "WHERE at.type_id <> ? AND v.language = '' ORDER BY v.attribute_id, v.asset_id",
      [NUMERIC_TYPE],
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('asset_sort_texts');
  }
}
