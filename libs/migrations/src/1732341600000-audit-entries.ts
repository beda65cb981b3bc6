import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { column } from './columns';

/**
 * `audit_entries` (owned by the audit lib): one row per audited change, written in the transaction of the
 * change (DomainEvents' recorders). The target is kept as its kind and id (`assets`, 12), its URL built
 * when read; `changes` is the JSON `{field: {before, after}}` when the change says what it changed.
 * Indices: newest first by id for the list and its cursor, per target (`assetId=`, the history), per
 * actor (`userId=`), and by time for `purge-audit`.
 */
export class AuditEntries1732341600000 implements MigrationInterface {
  name = 'AuditEntries1732341600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.driver.options.type === 'mysql';
    await queryRunner.createTable(
      new Table({
        name: 'audit_entries',
        columns: [
          { ...column.id(), type: mysql ? 'bigint' : 'integer' },
          column.datetime('at'),
          column.int('actor_user_id', { isNullable: true }),
          column.string('client_id', { length: '100', isNullable: true }),
          column.string('request_id', { length: '100', isNullable: true }),
          column.string('action', { length: '64' }),
          column.string('target_type', { length: '32' }),
          column.int('target_id'),
          { name: 'changes', type: mysql ? 'mediumtext' : 'text', isNullable: true },
        ],
        indices: [
          { columnNames: ['target_type', 'target_id', 'id'] },
          { columnNames: ['actor_user_id', 'id'] },
          { columnNames: ['action', 'id'] },
          { columnNames: ['at'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('audit_entries');
  }
}
