import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { column } from './columns';

/**
 * `object_deletions` (owned by platform storage): storage objects no row points at any more, queued in
 * the transaction that made them obsolete and deleted after it commits (ObjectDeletions). A failed
 * delete stays queued with its error and is retried from `not_before` on, with a growing delay.
 */
export class ObjectDeletions1732302000000 implements MigrationInterface {
  name = 'ObjectDeletions1732302000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'object_deletions',
        columns: [
          column.id(),
          column.string('storage_key', { length: '512' }),
          column.datetime('not_before'),
          column.int('attempts', { default: 0 }),
          column.string('last_error', { length: '500', isNullable: true }),
          column.createdAt(),
        ],
        indices: [{ columnNames: ['not_before'] }, { columnNames: ['storage_key'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('object_deletions');
  }
}
