import { MigrationInterface, QueryRunner, Table, TableForeignKeyOptions } from 'typeorm';
import { cascadeTo, column } from './columns';
import { assetFills } from './owner-fills';

/**
 * Assets per set of levels, state and category (`asset_category_tallies`) and per set, state and year
 * added (`asset_year_tallies`), owned by assets beside `asset_tallies` (AssetTalliesRepository keeps them
 * in the transaction of every write). The categories, access levels and years of a search with no
 * condition but visibility then add up tallies instead of grouping every asset: at a million assets on a
 * stock buffer pool, 1.5-1.8 s for three facets (bench/results/asset-search.md). A deleted category's
 * tallies go with it, as its `asset_categories` rows do. Filled here from an existing library.
 */
export class AssetFacetTallies1732323600000 implements MigrationInterface {
  name = 'AssetFacetTallies1732323600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const { FACET_TALLIES, recountAssetFacetTallies } = await assetFills();
    const state = [
      column.int('level_set_id', { isPrimary: true }),
      column.boolean('submitted', false, { isPrimary: true }),
      column.boolean('upload_pending', false, { isPrimary: true }),
    ];
    const { category, addedYear } = FACET_TALLIES;
    const toSet = {
      columnNames: ['level_set_id'],
      referencedTableName: 'asset_level_sets',
      referencedColumnNames: ['id'],
    };
    // Each: assets per set of levels, state and value, the value's own column last in the key.
    const tallyTable = (name: string, valueColumn: string, foreignKeys: TableForeignKeyOptions[]) =>
      new Table({
        name,
        columns: [
          ...state,
          column.int(valueColumn, { isPrimary: true }),
          column.int('assets', { default: 0 }),
        ],
        foreignKeys: [toSet, ...foreignKeys],
      });
    await queryRunner.createTable(
      tallyTable(category.table, category.column, [cascadeTo(category.column, 'categories')]),
    );
    await queryRunner.createTable(tallyTable(addedYear.table, addedYear.column, []));
    const mysql = queryRunner.connection.driver.options.type !== 'better-sqlite3';
    // Only the tables made here: a later migration adds each further facet's table and fills it.
    await recountAssetFacetTallies((sql, parameters) => queryRunner.query(sql, parameters), mysql, [
      'category',
      'addedYear',
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const { FACET_TALLIES } = await assetFills();
    await queryRunner.dropTable(FACET_TALLIES.addedYear.table);
    await queryRunner.dropTable(FACET_TALLIES.category.table);
  }
}
