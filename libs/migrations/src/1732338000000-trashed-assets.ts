import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { cascadeTo, column } from './columns';

/**
 * `trashed_assets` and `trashed_asset_objects` (owned by the assets area's trash): a deleted asset kept
 * restorable for DAM_TRASH_RETENTION_DAYS. `snapshot` is the JSON of every row the asset had
 * (`{format, asset, parts}`), written in the transaction that deleted them; `purge_at` is when the
 * `purge-trash` job drops it. `trashed_asset_objects` lists the stored objects the snapshot refers to, so
 * the orphan sweep keeps them (by `storage_key`) and a purge queues them for deletion.
 */
export class TrashedAssets1732338000000 implements MigrationInterface {
  name = 'TrashedAssets1732338000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.driver.options.type === 'mysql';
    await queryRunner.createTable(
      new Table({
        name: 'trashed_assets',
        columns: [
          column.id(),
          column.int('asset_id'),
          column.string('title', { isNullable: true }),
          column.int('deleted_by_user_id', { isNullable: true }),
          column.datetime('deleted_at'),
          column.datetime('purge_at'),
          // A snapshot holds every value and version row of the asset: past TEXT's 64 KB on MySQL.
          { name: 'snapshot', type: mysql ? 'longtext' : 'text' },
        ],
        indices: [
          { columnNames: ['asset_id'], isUnique: true },
          { columnNames: ['deleted_at'] },
          { columnNames: ['purge_at'] },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'trashed_asset_objects',
        columns: [
          column.int('trash_id', { isPrimary: true }),
          column.string('storage_key', { isPrimary: true }),
        ],
        indices: [{ columnNames: ['storage_key'] }],
        foreignKeys: [cascadeTo('trash_id', 'trashed_assets')],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('trashed_asset_objects');
    await queryRunner.dropTable('trashed_assets');
  }
}
