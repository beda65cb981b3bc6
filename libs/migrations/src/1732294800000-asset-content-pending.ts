import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { column } from './columns';

/**
 * `assets.content_pending`: a new file uploaded with edit-with-approval awaits approval. The content
 * area keeps it in step with its pending file (`asset_files.is_pending`) in the same transaction, so the
 * assets area decides `approved` and the pending-edit queue from its own table.
 */
export class AssetContentPending1732294800000 implements MigrationInterface {
  name = 'AssetContentPending1732294800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'assets',
      new TableColumn({ ...column.boolean('content_pending', false), isNullable: false }),
    );
    await queryRunner.query(
      'UPDATE assets SET content_pending = ? WHERE id IN (SELECT asset_id FROM asset_files WHERE is_pending = ?)',
      [true, true],
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('assets', 'content_pending');
  }
}
