import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { cascadeTo, column } from './columns';

/**
 * `search_reindex_attributes` (owned by assets): the attributes whose values the search index must be
 * rebuilt for, because their type changed (the tokens and the sort copies of a value depend on its
 * attribute's type). A row is written in the transaction of the change (the `attribute.updated` event's
 * recorder), so it outlives a process that stops before the reindex; `requests` counts the changes, so
 * that the `reindex-attributes` job removes a row only when no change came in while it worked. A deleted
 * attribute's row goes with it (its values do too).
 */
export class SearchReindexAttributes1732402800000 implements MigrationInterface {
  name = 'SearchReindexAttributes1732402800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'search_reindex_attributes',
        columns: [column.int('attribute_id', { isPrimary: true }), column.int('requests', { default: 1 })],
        foreignKeys: [cascadeTo('attribute_id', 'attributes')],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('search_reindex_attributes');
  }
}
