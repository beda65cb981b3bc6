import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { column } from './columns';

/** Users, groups, OAuth clients and tokens, settings and job leases. */
export class Foundation1732258800000 implements MigrationInterface {
  name = 'Foundation1732258800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'users',
        columns: [
          column.id(),
          column.string('username', { isUnique: true }),
          column.string('email_address', { isNullable: true }),
          column.string('forename', { isNullable: true }),
          column.string('surname', { isNullable: true }),
          column.string('password_hash', { isNullable: true }),
          column.boolean('is_admin', false),
          column.boolean('is_application', false),
          column.createdAt(),
          column.updatedAt(),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'groups',
        columns: [column.id(), column.string('name'), column.createdAt()],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'user_groups',
        columns: [column.int('user_id', { isPrimary: true }), column.int('group_id', { isPrimary: true })],
        indices: [{ columnNames: ['group_id'] }],
        foreignKeys: [
          {
            columnNames: ['user_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
          {
            columnNames: ['group_id'],
            referencedTableName: 'groups',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'oauth_clients',
        columns: [
          column.id(),
          column.string('client_id', { length: '100', isUnique: true }),
          column.string('secret_hash'),
          column.string('name'),
          column.int('user_id'),
          column.createdAt(),
        ],
        foreignKeys: [
          {
            columnNames: ['user_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'oauth_tokens',
        columns: [
          column.id(),
          column.string('token_hash', { length: '64', isUnique: true }),
          column.string('kind', { length: '16' }),
          column.string('family', { length: '36' }),
          column.int('client_id'),
          column.int('user_id'),
          column.datetime('expires_at'),
          column.datetime('revoked_at', { isNullable: true }),
          column.createdAt(),
        ],
        indices: [{ columnNames: ['family'] }, { columnNames: ['expires_at'] }],
        foreignKeys: [
          {
            columnNames: ['client_id'],
            referencedTableName: 'oauth_clients',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
          {
            columnNames: ['user_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'settings',
        columns: [column.string('name', { length: '100', isPrimary: true }), column.text('value')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'job_leases',
        columns: [
          column.string('name', { length: '100', isPrimary: true }),
          column.string('holder', { length: '100' }),
          column.datetime('expires_at'),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'job_leases',
      'settings',
      'oauth_tokens',
      'oauth_clients',
      'user_groups',
      'groups',
      'users',
    ]) {
      await queryRunner.dropTable(table);
    }
  }
}
