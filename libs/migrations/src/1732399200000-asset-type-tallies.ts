import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { column } from './columns';
import { assetFills } from './owner-fills';

/**
 * `asset_type_tallies` and `asset_word_type_tallies`, owned by assets beside the other facet tallies:
 * assets per type (`type_key`: the asset type's id, or the negative key of the type from the content when
 * it has none, see `assetTypeKey`), set of levels and state, and the same per word and set of attributes
 * holding it. The type facet of a search with no condition but visibility, or for one word, then adds up
 * tallies instead of grouping every match: the type and region facets of the commonest word of a million
 * assets answered 503 after 5 s on a stock buffer pool (issue 35). Filled here from an existing library.
 */
export class AssetTypeTallies1732399200000 implements MigrationInterface {
  name = 'AssetTypeTallies1732399200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const { FACET_TALLIES, WORD_FACET_TALLIES, recountAssetFacetTallies, recountAssetWordFacetTallies } =
      await assetFills();
    const mysql = queryRunner.connection.driver.options.type !== 'better-sqlite3';
    const state = [
      column.int('level_set_id', { isPrimary: true }),
      column.boolean('submitted', false, { isPrimary: true }),
      column.boolean('upload_pending', false, { isPrimary: true }),
    ];
    const toSet = {
      columnNames: ['level_set_id'],
      referencedTableName: 'asset_level_sets',
      referencedColumnNames: ['id'],
    };
    const { table, column: key } = FACET_TALLIES.assetType;
    await queryRunner.createTable(
      new Table({
        name: table,
        columns: [...state, column.int(key, { isPrimary: true }), column.int('assets', { default: 0 })],
        foreignKeys: [toSet],
      }),
    );
    // As the other word facet tallies: the word, then the value, so that a word's rows are read in order.
    const word = WORD_FACET_TALLIES.assetType;
    await queryRunner.createTable(
      new Table({
        name: word.table,
        columns: [
          // Byte for byte on MySQL, as in `asset_search_tokens` and `asset_word_tallies`.
          column.string('token', {
            length: '64',
            isPrimary: true,
            ...(mysql ? { collation: 'utf8mb4_bin' } : {}),
          }),
          column.int(word.column, { isPrimary: true }),
          ...state,
          column.string('attribute_ids', { length: '255', isPrimary: true }),
          column.int('assets', { default: 0 }),
        ],
        foreignKeys: [toSet],
      }),
    );
    const query = (sql: string, parameters?: unknown[]) => queryRunner.query(sql, parameters);
    await recountAssetFacetTallies(query, mysql, ['assetType']);
    await recountAssetWordFacetTallies(query, mysql, ['assetType']);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const { FACET_TALLIES, WORD_FACET_TALLIES } = await assetFills();
    await queryRunner.dropTable(WORD_FACET_TALLIES.assetType.table);
    await queryRunner.dropTable(FACET_TALLIES.assetType.table);
  }
}
