import { MigrationInterface, QueryRunner, Table, TableColumn } from 'typeorm';
import { column } from './columns';
import { assetFills } from './owner-fills';

/**
 * The sets of access levels that assets have, and how many assets each set holds per state (owned by
 * assets; AssetTalliesRepository keeps them in the transaction of every write):
 * - `asset_level_sets`: one row per distinct set of levels (`level_key` is its `idSetKey`, `level_ids`
 *   its `idSetText`), never deleted;
 * - `assets.level_set_id`: the asset's set, so that a viewer's visibility is a test of the row itself
 *   (the sets they may see, worked out from a few rows) instead of a probe of the asset's levels;
 * - `asset_tallies`: assets per set and state (`submitted`, `upload_pending`), so that a search with no
 *   condition but visibility counts from a few rows instead of from every asset.
 * At a million assets on a stock buffer pool both probes and counts read a million index entries
 * (bench/results/asset-search.md). Filled here from what an existing library already holds.
 */
export class AssetTallies1732320000000 implements MigrationInterface {
  name = 'AssetTallies1732320000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'asset_level_sets',
        columns: [
          column.id(),
          column.string('level_key', { length: '40', isUnique: true }),
          column.text('level_ids'),
        ],
      }),
    );
    // No foreign key: on MySQL its index would add an entry per asset that no query reads. Sets are
    // never deleted, and NULL (an asset written behind the service's back) hides it from viewers who see
    // it only through its levels until the rebuild-search-index job recounts.
    await queryRunner.addColumn('assets', new TableColumn(column.int('level_set_id', { isNullable: true })));
    await queryRunner.createTable(
      new Table({
        name: 'asset_tallies',
        columns: [
          column.int('level_set_id', { isPrimary: true }),
          column.boolean('submitted', false, { isPrimary: true }),
          column.boolean('upload_pending', false, { isPrimary: true }),
          column.int('assets', { default: 0 }),
        ],
        foreignKeys: [
          {
            columnNames: ['level_set_id'],
            referencedTableName: 'asset_level_sets',
            referencedColumnNames: ['id'],
          },
        ],
      }),
    );
    const mysql = queryRunner.connection.driver.options.type !== 'better-sqlite3';
    const { recountAssetLevelSets } = await assetFills();
    await recountAssetLevelSets((sql, parameters) => queryRunner.query(sql, parameters), mysql);
    // Every row grew by the 4 bytes of its set and split its page: InnoDB rebuilds the table compact
    // again (at 1M assets: 100 -> 53 MB, which the stock 128 MiB buffer pool holds beside the indexes).
    if (mysql) await queryRunner.query('OPTIMIZE TABLE assets');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('asset_tallies');
    await queryRunner.dropColumn('assets', 'level_set_id');
    await queryRunner.dropTable('asset_level_sets');
  }
}
