import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * `rights_expiry` (owned by this module): when each asset's usage rights end. Kept in the module's own
 * migration history (`rights_expiry_migrations`), so adding the module edits no migration list of the
 * platform. Column shapes that mean the same on SQLite and MySQL/MariaDB.
 */
export class RightsExpiry1732311120000 implements MigrationInterface {
  name = 'RightsExpiry1732311120000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'rights_expiry',
        columns: [
          { name: 'asset_id', type: 'integer', isPrimary: true },
          { name: 'expires_at', type: 'datetime', isNullable: true },
          { name: 'expired_at', type: 'datetime', isNullable: true },
          { name: 'updated_at', type: 'datetime' },
        ],
        indices: [{ columnNames: ['expires_at'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('rights_expiry');
  }
}
