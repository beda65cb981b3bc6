import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { column } from './columns';
import { assetFills } from './owner-fills';

/**
 * `asset_word_tallies`, owned by assets beside `asset_tallies`: assets per word, set of levels, state and
 * set of attributes holding the word (AssetWordTalliesRepository keeps it in the transaction of every
 * write of an asset's tokens, levels or state). A single word's exact total is then a sum of a few
 * hundred rows instead of a count of every match: at a million assets on a stock buffer pool the
 * commonest word (665,021 matches) took over a second (issue 35, bench/results/asset-search.md). The
 * token compares byte for byte on MySQL, as in `asset_search_tokens`. Filled here from an existing library.
 */
export class AssetWordTallies1732363200000 implements MigrationInterface {
  name = 'AssetWordTallies1732363200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const { WORD_TALLIES, recountAssetWordTallies } = await assetFills();
    const mysql = queryRunner.connection.driver.options.type !== 'better-sqlite3';
    await queryRunner.createTable(
      new Table({
        name: WORD_TALLIES,
        columns: [
          column.string('token', {
            length: '64',
            isPrimary: true,
            ...(mysql ? { collation: 'utf8mb4_bin' } : {}),
          }),
          column.int('level_set_id', { isPrimary: true }),
          column.boolean('submitted', false, { isPrimary: true }),
          column.boolean('upload_pending', false, { isPrimary: true }),
          column.string('attribute_ids', { length: '255', isPrimary: true }),
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
    await recountAssetWordTallies((sql, parameters) => queryRunner.query(sql, parameters), mysql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const { WORD_TALLIES } = await assetFills();
    await queryRunner.dropTable(WORD_TALLIES);
  }
}
