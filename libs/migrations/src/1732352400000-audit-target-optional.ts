import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { column } from './columns';

/**
 * `audit_entries.target_id` may be NULL: a failed login names a username that matches no user (kept in
 * the entry's `changes`), so its entry has no target. MariaDB changes the column in place (MODIFY keeps
 * its values and its place in the `(target_type, target_id, id)` index; TypeORM's changeColumn would drop
 * and re-add it); SQLite has no ALTER COLUMN, so TypeORM rebuilds the table, indices included.
 */
export class AuditTargetOptional1732352400000 implements MigrationInterface {
  name = 'AuditTargetOptional1732352400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await this.targetId(queryRunner, true);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DELETE FROM audit_entries WHERE target_id IS NULL');
    await this.targetId(queryRunner, false);
  }

  private async targetId(queryRunner: QueryRunner, nullable: boolean): Promise<void> {
    if (queryRunner.connection.driver.options.type === 'mysql') {
      await queryRunner.query(
        `ALTER TABLE audit_entries MODIFY target_id int ${nullable ? 'NULL' : 'NOT NULL'}`,
      );
      return;
    }
    await queryRunner.changeColumn(
      'audit_entries',
      'target_id',
      new TableColumn(column.int('target_id', { isNullable: nullable })),
    );
  }
}
