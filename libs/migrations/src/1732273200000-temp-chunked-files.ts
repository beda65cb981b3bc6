import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { column } from './columns';

/**
 * Temp chunked files and their chunks. A chunk row names the storage object holding its bytes; the
 * (file, index) primary key keeps one chunk per index however many uploads race. Deleting a file row
 * removes its chunk rows (the objects are removed by the service, under `temp/{uuid}/`).
 */
export class TempChunkedFiles1732273200000 implements MigrationInterface {
  name = 'TempChunkedFiles1732273200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'temp_chunked_files',
        columns: [
          column.string('id', { length: '36', isPrimary: true }),
          // A deleted user's files stay until purged; only admins can still reach them.
          column.int('created_by_user_id', { isNullable: true }),
          column.createdAt(),
          column.datetime('touched_at'),
        ],
        indices: [{ columnNames: ['touched_at'] }, { columnNames: ['created_by_user_id'] }],
        foreignKeys: [
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
        name: 'temp_chunks',
        columns: [
          column.string('temp_file_id', { length: '36', isPrimary: true }),
          column.int('chunk_index', { isPrimary: true }),
          column.string('storage_key', { length: '191' }),
          column.bigint('size'),
          column.updatedAt(),
        ],
        foreignKeys: [
          {
            columnNames: ['temp_file_id'],
            referencedTableName: 'temp_chunked_files',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('temp_chunks');
    await queryRunner.dropTable('temp_chunked_files');
  }
}
