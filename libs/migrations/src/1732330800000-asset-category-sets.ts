import { MigrationInterface, QueryRunner, Table, TableColumn } from 'typeorm';
import { cascadeTo, column } from './columns';
import { assetFills } from './owner-fills';

/**
 * The sets of categories that assets are in, as `asset_level_sets` holds their sets of levels (owned by
 * assets; AssetTalliesRepository keeps them in the transaction of every write):
 * - `asset_category_sets`: one row per distinct set (`category_key` its `idSetKey`, `category_ids` its
 *   `idSetText`), never deleted;
 * - `asset_category_set_members`: the categories of each set, going with a deleted category (foreign-key
 *   cascade), so that a set read through its members never names a category that is gone;
 * - `assets.category_set_id`: the asset's set, NULL when it is in no category.
 * The category facet of a search then groups its matches by their set and adds each set's count to each
 * of its members, instead of joining every match's categories (50,830 matches at 1M: 100-143 ms of the
 * facets' 242-403; bench/results/asset-search.md). Filled here from what an existing library holds.
 */
export class AssetCategorySets1732330800000 implements MigrationInterface {
  name = 'AssetCategorySets1732330800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'asset_category_sets',
        columns: [
          column.id(),
          column.string('category_key', { length: '40', isUnique: true }),
          column.text('category_ids'),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'asset_category_set_members',
        columns: [column.int('set_id', { isPrimary: true }), column.int('category_id', { isPrimary: true })],
        indices: [{ columnNames: ['category_id'] }],
        foreignKeys: [cascadeTo('set_id', 'asset_category_sets'), cascadeTo('category_id', 'categories')],
      }),
    );
    // No foreign key, as for level_set_id: its index would add an entry per asset that no query reads.
    await queryRunner.addColumn(
      'assets',
      new TableColumn(column.int('category_set_id', { isNullable: true })),
    );
    const mysql = queryRunner.connection.driver.options.type !== 'better-sqlite3';
    const { recountAssetCategorySets } = await assetFills();
    await recountAssetCategorySets((sql, parameters) => queryRunner.query(sql, parameters), mysql);
    // Every row grew by 4 bytes and split its page: rebuilt compact, as when level_set_id came.
    if (mysql) await queryRunner.query('OPTIMIZE TABLE assets');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('assets', 'category_set_id');
    await queryRunner.dropTable('asset_category_set_members');
    await queryRunner.dropTable('asset_category_sets');
  }
}
