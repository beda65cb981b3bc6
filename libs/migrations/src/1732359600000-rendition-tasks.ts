import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { column } from './columns';

/**
 * Previews of videos and documents (issue 34):
 * - `rendition_tasks`: the rendition queue, claimed through the database. A task is a file whose
 *   renditions are to be made; a worker claims it by setting `holder` and `lease_until` (renewed while it
 *   works), so any number of workers share the queue, an `api` process (DAM_ROLE) never makes renditions,
 *   and a dead worker's claim expires. One task per file (unique `file_id`).
 * - `asset_renditions.duration_ms` and `.codec`: a video's duration and codec, kept on its proxy's row.
 */
export class RenditionTasks1732359600000 implements MigrationInterface {
  name = 'RenditionTasks1732359600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'rendition_tasks',
        columns: [
          column.id(),
          column.int('asset_id'),
          column.int('file_id'),
          column.string('holder', { length: '64', isNullable: true }),
          column.datetime('lease_until', { isNullable: true }),
          column.int('attempts', { default: 0 }),
          column.createdAt(),
        ],
        indices: [
          new TableIndex({ name: 'UQ_rendition_tasks_file', columnNames: ['file_id'], isUnique: true }),
          new TableIndex({ name: 'IDX_rendition_tasks_lease', columnNames: ['lease_until'] }),
        ],
      }),
    );
    await queryRunner.query('ALTER TABLE asset_renditions ADD COLUMN duration_ms integer NULL');
    await queryRunner.query('ALTER TABLE asset_renditions ADD COLUMN codec varchar(32) NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE asset_renditions DROP COLUMN codec');
    await queryRunner.query('ALTER TABLE asset_renditions DROP COLUMN duration_ms');
    await queryRunner.dropTable('rendition_tasks');
  }
}
