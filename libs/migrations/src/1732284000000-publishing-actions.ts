import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { column } from './columns';

/**
 * Publishing actions: named asset-search criteria whose result set is compared run by run.
 * - `publishing_actions.next_sequence` is the sequence number the next logged event gets; each run
 *   first writes the action row, which locks it until the run commits, so concurrent runs of one action
 *   queue up instead of logging the same change twice.
 * - `publishing_action_members` is the result set of the last run (no foreign key to assets: a deleted
 *   asset must still be found there so that the next run logs its UNPUBLISH).
 * - `publishing_action_events` is the append-only log, keyed by (action, sequence).
 */
export class PublishingActions1732284000000 implements MigrationInterface {
  name = 'PublishingActions1732284000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'publishing_actions',
        columns: [
          column.id(),
          column.string('name'),
          column.text('criteria'),
          column.int('next_sequence', { default: 1 }),
          column.datetime('last_run_at', { isNullable: true }),
          column.createdAt(),
          column.updatedAt(),
        ],
      }),
    );
    const cascade = {
      columnNames: ['action_id'],
      referencedTableName: 'publishing_actions',
      referencedColumnNames: ['id'],
      onDelete: 'CASCADE',
    };
    await queryRunner.createTable(
      new Table({
        name: 'publishing_action_members',
        columns: [column.int('action_id', { isPrimary: true }), column.int('asset_id', { isPrimary: true })],
        foreignKeys: [cascade],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'publishing_action_events',
        columns: [
          column.int('action_id', { isPrimary: true }),
          column.int('sequence', { isPrimary: true }),
          column.int('asset_id'),
          column.string('type', { length: '16' }),
          column.createdAt(),
        ],
        foreignKeys: [cascade],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['publishing_action_events', 'publishing_action_members', 'publishing_actions']) {
      await queryRunner.dropTable(table);
    }
  }
}
