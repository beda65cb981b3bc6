import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { column } from './columns';

/**
 * `audit_entries.target_id` may be NULL: a failed login names a username that matches no user (kept in
 * the entry's `changes`), so its entry has no target. TypeORM rebuilds the table on SQLite (indices kept);
 * MariaDB changes the column in place.
 */
export class AuditTargetOptional1732352400000 implements MigrationInterface {
  name = 'AuditTargetOptional1732352400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.changeColumn(
      'audit_entries',
      'target_id',
      new TableColumn(column.int('target_id', { isNullable: true })),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DELETE FROM audit_entries WHERE target_id IS NULL');
    await queryRunner.changeColumn('audit_entries', 'target_id', new TableColumn(column.int('target_id')));
  }
}
