import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { column } from './columns';

/**
 * Access levels, group permissions, categories, translations, and the core of assets (their levels,
 * categories and visibility flags). Attribute values and content come in later migrations.
 */
export class TreesAndAssets1732262400000 implements MigrationInterface {
  name = 'TreesAndAssets1732262400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'access_levels',
        columns: [
          column.id(),
          column.string('name'),
          column.text('description', { isNullable: true }),
          column.int('parent_id', { isNullable: true }),
          column.boolean('is_always_assignable', false),
          column.boolean('has_permissions', false),
          column.boolean('is_selected_on_load', false),
          column.boolean('is_browsable', true),
          column.boolean('show_promoted_items', false),
          column.boolean('show_recent_items', false),
          column.boolean('is_static', false),
          column.string('image_key', { isNullable: true }),
          column.string('image_filename', { isNullable: true }),
          column.string('image_content_type', { length: '100', isNullable: true }),
          column.createdAt(),
          column.updatedAt(),
        ],
        indices: [{ columnNames: ['parent_id'] }],
        foreignKeys: [
          { columnNames: ['parent_id'], referencedTableName: 'access_levels', referencedColumnNames: ['id'] },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'group_permissions',
        columns: [
          column.int('group_id', { isPrimary: true }),
          column.int('access_level_id', { isPrimary: true }),
          column.string('permission', { length: '32', isPrimary: true }),
        ],
        indices: [{ columnNames: ['access_level_id'] }],
        foreignKeys: [
          {
            columnNames: ['group_id'],
            referencedTableName: 'groups',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
          {
            columnNames: ['access_level_id'],
            referencedTableName: 'access_levels',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'categories',
        columns: [
          column.id(),
          column.string('name'),
          column.text('description', { isNullable: true }),
          column.int('parent_id', { isNullable: true }),
          column.createdAt(),
          column.updatedAt(),
        ],
        indices: [{ columnNames: ['parent_id'] }],
        foreignKeys: [
          { columnNames: ['parent_id'], referencedTableName: 'categories', referencedColumnNames: ['id'] },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'translations',
        columns: [
          column.string('entity_type', { length: '32', isPrimary: true }),
          column.int('entity_id', { isPrimary: true }),
          column.string('field', { length: '32', isPrimary: true }),
          column.string('language', { length: '16', isPrimary: true }),
          column.text('text'),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'assets',
        columns: [
          column.id(),
          column.boolean('submitted', true),
          column.boolean('upload_pending', false),
          column.boolean('archived', false),
          column.string('type', { length: '16', default: "'File'" }),
          column.int('asset_type_id', { isNullable: true }),
          column.int('added_by_user_id', { isNullable: true }),
          column.createdAt(),
          column.updatedAt(),
        ],
        indices: [{ columnNames: ['submitted', 'upload_pending'] }, { columnNames: ['added_by_user_id'] }],
        foreignKeys: [
          {
            columnNames: ['added_by_user_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'SET NULL',
          },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'asset_access_levels',
        columns: [
          column.int('asset_id', { isPrimary: true }),
          column.int('access_level_id', { isPrimary: true }),
        ],
        indices: [{ columnNames: ['access_level_id', 'asset_id'] }],
        foreignKeys: [
          {
            columnNames: ['asset_id'],
            referencedTableName: 'assets',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
          {
            columnNames: ['access_level_id'],
            referencedTableName: 'access_levels',
            referencedColumnNames: ['id'],
          },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'asset_categories',
        columns: [
          column.int('asset_id', { isPrimary: true }),
          column.int('category_id', { isPrimary: true }),
        ],
        indices: [{ columnNames: ['category_id', 'asset_id'] }],
        foreignKeys: [
          {
            columnNames: ['asset_id'],
            referencedTableName: 'assets',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
          { columnNames: ['category_id'], referencedTableName: 'categories', referencedColumnNames: ['id'] },
        ],
      }),
    );
    const now = new Date().toISOString().slice(0, 19).replace('T', ' ');
    await queryRunner.query(
      'INSERT INTO access_levels (name, description, parent_id, is_always_assignable, has_permissions, ' +
        'is_selected_on_load, is_browsable, show_promoted_items, show_recent_items, is_static, created_at, updated_at) ' +
        'VALUES (?, NULL, NULL, 0, 1, 0, 1, 0, 0, 1, ?, ?)',
      ['Default', now, now],
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'asset_categories',
      'asset_access_levels',
      'assets',
      'translations',
      'categories',
      'group_permissions',
      'access_levels',
    ]) {
      await queryRunner.dropTable(table);
    }
  }
}
