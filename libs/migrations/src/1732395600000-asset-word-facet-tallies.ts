import { MigrationInterface, QueryRunner, Table, TableForeignKeyOptions } from 'typeorm';
import { cascadeTo, column } from './columns';
import { assetFills } from './owner-fills';

/**
 * `asset_word_category_tallies` and `asset_word_year_tallies`, owned by assets beside
 * `asset_word_tallies`: assets per word and category (or year added), set of levels, state and set of
 * attributes holding the word (AssetWordTalliesRepository keeps them in the transaction of every write of
 * an asset's tokens, levels, state or categories). The category and year facets of a search for one word
 * then add up the word's rows instead of reading each match's asset row: three facets of the rank-10 word
 * of a million assets took 593 ms on a stock buffer pool (issue 35). The key is the word, then the value,
 * so that a word's rows are read in value order. A deleted category's rows go with it, as its
 * `asset_categories` rows do. Filled here from an existing library.
 */
export class AssetWordFacetTallies1732395600000 implements MigrationInterface {
  name = 'AssetWordFacetTallies1732395600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const { WORD_FACET_TALLIES, recountAssetWordFacetTallies } = await assetFills();
    const mysql = queryRunner.connection.driver.options.type !== 'better-sqlite3';
    const toSet = {
      columnNames: ['level_set_id'],
      referencedTableName: 'asset_level_sets',
      referencedColumnNames: ['id'],
    };
    const tallyTable = (name: string, valueColumn: string, foreignKeys: TableForeignKeyOptions[]) =>
      new Table({
        name,
        columns: [
          // Byte for byte on MySQL, as in `asset_search_tokens` and `asset_word_tallies`.
          column.string('token', {
            length: '64',
            isPrimary: true,
            ...(mysql ? { collation: 'utf8mb4_bin' } : {}),
          }),
          column.int(valueColumn, { isPrimary: true }),
          column.int('level_set_id', { isPrimary: true }),
          column.boolean('submitted', false, { isPrimary: true }),
          column.boolean('upload_pending', false, { isPrimary: true }),
          column.string('attribute_ids', { length: '255', isPrimary: true }),
          column.int('assets', { default: 0 }),
        ],
        foreignKeys: [toSet, ...foreignKeys],
      });
    const { category, addedYear } = WORD_FACET_TALLIES;
    await queryRunner.createTable(
      tallyTable(category.table, category.column, [cascadeTo(category.column, 'categories')]),
    );
    await queryRunner.createTable(tallyTable(addedYear.table, addedYear.column, []));
    // Only the tables made here: a later migration adds each further facet's table and fills it.
    await recountAssetWordFacetTallies((sql, parameters) => queryRunner.query(sql, parameters), mysql, [
      'category',
      'addedYear',
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const { WORD_FACET_TALLIES } = await assetFills();
    await queryRunner.dropTable(WORD_FACET_TALLIES.addedYear.table);
    await queryRunner.dropTable(WORD_FACET_TALLIES.category.table);
  }
}
