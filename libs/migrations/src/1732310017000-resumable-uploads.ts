import { MigrationInterface, QueryRunner, Table, TableColumn } from 'typeorm';
import { column } from './columns';

/**
 * Resumable uploads (issue 17).
 * - `temp_chunks.sha256` (owned by temp-chunked-files): the hex SHA-256 of each chunk as written, so a
 *   client can tell which chunks arrived intact; null for chunks written before this migration.
 * - `tus_uploads` (owned by tus): one row per tus upload, naming the asset it becomes the content of
 *   and its creator; the bytes live in the tus store under `tus/{id}`.
 * - `tus_locks` (owned by tus): the tus locker's leases, shared by every instance. A request that wants a
 *   held lock sets `release_requested`, which the holder sees at its next heartbeat.
 */
export class ResumableUploads1732310017000 implements MigrationInterface {
  name = 'ResumableUploads1732310017000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'temp_chunks',
      new TableColumn(column.string('sha256', { length: '64', isNullable: true })),
    );
    await queryRunner.createTable(
      new Table({
        name: 'tus_uploads',
        columns: [
          column.string('id', { length: '32', isPrimary: true }),
          column.int('asset_id'),
          column.int('created_by_user_id', { isNullable: true }),
          column.createdAt(),
          column.datetime('completed_at', { isNullable: true }),
        ],
        indices: [{ columnNames: ['created_at'] }, { columnNames: ['completed_at'] }],
        foreignKeys: [
          {
            columnNames: ['asset_id'],
            referencedTableName: 'assets',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
          {
            columnNames: ['created_by_user_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'SET NULL',
          },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'tus_locks',
        columns: [
          column.string('upload_id', { length: '32', isPrimary: true }),
          column.string('holder', { length: '64' }),
          column.datetime('expires_at'),
          column.boolean('release_requested', false),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('tus_locks');
    await queryRunner.dropTable('tus_uploads');
    await queryRunner.dropColumn('temp_chunks', 'sha256');
  }
}
