import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { column } from './columns';

/**
 * `trash_tally` (owned by the assets area's trash, next to `trashed_assets`): one row, `id` 1, holding
 * how many assets are in the trash, kept by TrashRepository in the transaction of every trash, restore
 * and purge, so `X-Total-Count` of `GET /rest/admin/trash` is one row instead of a count of every
 * trashed asset (11-16 s at a million on a loaded MariaDB, past the statement deadline). Filled here from
 * what the trash already holds.
 */
export class TrashTally1732381200000 implements MigrationInterface {
  name = 'TrashTally1732381200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'trash_tally',
        columns: [column.int('id', { isPrimary: true }), column.int('trashed')],
      }),
    );
    await queryRunner.query('INSERT INTO trash_tally (id, trashed) SELECT 1, COUNT(*) FROM trashed_assets');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('trash_tally');
  }
}
