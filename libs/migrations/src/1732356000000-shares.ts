import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { cascadeTo, column } from './columns';

/**
 * Shares (issue 33, owned by the shares lib): links that hand a set of assets to people without an
 * account. `token_hash` is the SHA-256 of the link's token (the token itself is never stored, so a dump
 * of the table opens nothing); `password_hash` is scrypt's. `share_items` is the snapshot of the assets
 * taken at creation (a lightbox's members then), in their order; an item whose asset is gone, trashed,
 * archived or no longer downloadable by the creator is left out when the share is read. Indices: the
 * creator's list, and `purge-expired-shares` by expiry.
 */
export class Shares1732356000000 implements MigrationInterface {
  name = 'Shares1732356000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'shares',
        columns: [
          column.id(),
          column.string('token_hash', { length: '64', isUnique: true }),
          column.int('user_id'),
          column.string('title', { length: '255' }),
          column.string('rendition', { length: '16' }),
          column.string('password_hash', { length: '255', isNullable: true }),
          column.datetime('expires_at'),
          column.int('max_downloads', { isNullable: true }),
          column.int('downloads', { default: 0 }),
          column.datetime('revoked_at', { isNullable: true }),
          column.createdAt(),
        ],
        indices: [{ columnNames: ['user_id', 'id'] }, { columnNames: ['expires_at'] }],
        foreignKeys: [cascadeTo('user_id', 'users')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'share_items',
        columns: [
          column.int('share_id', { isPrimary: true }),
          column.int('position', { isPrimary: true }),
          column.int('asset_id'),
        ],
        foreignKeys: [cascadeTo('share_id', 'shares')],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('share_items');
    await queryRunner.dropTable('shares');
  }
}
