import { MigrationInterface, QueryRunner, Table, TableForeignKeyOptions } from 'typeorm';
import { column } from './columns';

/** [staticName, label, typeId, isReadOnly, isKeywordSearchable]: ids 1..10 on a fresh database, in this order. */
const SYSTEM_ATTRIBUTES: Array<[string, string, number, boolean, boolean]> = [
  ['title', 'Title', 1, false, true],
  ['description', 'Description', 2, false, true],
  ['keywords', 'Keywords', 7, false, true],
  ['originalFilename', 'Original filename', 1, true, false],
  ['fileSize', 'File size', 8, true, false],
  ['dateAdded', 'Date added', 4, true, false],
  ['dateLastModified', 'Date last modified', 4, true, false],
  ['addedBy', 'Added by', 1, true, false],
  ['accessLevels', 'Access levels', 11, false, false],
  ['categories', 'Categories', 10, false, false],
];

/** [type, tagName, displayName, staticName of the attribute] */
const EMBEDDED_DATA_MAPPINGS: Array<[string, string, string, string]> = [
  ['EXIF', 'ImageDescription', 'Image description', 'description'],
  ['IPTC', 'Keywords', 'Keywords', 'keywords'],
  ['IPTC', 'ObjectName', 'Object name', 'title'],
  ['XMP', 'dc:title', 'Title', 'title'],
  ['XMP', 'dc:description', 'Description', 'description'],
];

const cascadeTo = (columnName: string, table: string): TableForeignKeyOptions => ({
  columnNames: [columnName],
  referencedTableName: table,
  referencedColumnNames: ['id'],
  onDelete: 'CASCADE',
});

/**
 * Attributes and what hangs off them: list values, keyword trees with synonyms, display attribute groups,
 * asset types and embedded-data mappings. Seeds the system attributes, asset types, a default display
 * group and a few mappings.
 */
export class Attributes1732266000000 implements MigrationInterface {
  name = 'Attributes1732266000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await this.createTables(queryRunner);
    await this.seed(queryRunner);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'embedded_data_mappings',
      'asset_types',
      'display_attribute_group_attributes',
      'display_attribute_groups',
      'keyword_synonyms',
      'keywords',
      'list_attribute_values',
      'attributes',
    ]) {
      await queryRunner.dropTable(table);
    }
  }

  private async createTables(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'attributes',
        columns: [
          column.id(),
          column.string('label'),
          column.string('static_name', { length: '64', isNullable: true, isUnique: true }),
          column.int('type_id'),
          column.boolean('is_system', false),
          column.boolean('is_read_only', false),
          column.boolean('is_keyword_searchable', false),
          column.int('display_order', { default: 0 }),
          column.createdAt(),
          column.updatedAt(),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'list_attribute_values',
        columns: [
          column.id(),
          column.int('attribute_id'),
          column.string('value'),
          column.string('additional_value', { isNullable: true }),
          column.createdAt(),
        ],
        uniques: [{ columnNames: ['attribute_id', 'value'] }],
        foreignKeys: [cascadeTo('attribute_id', 'attributes')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'keywords',
        columns: [
          column.id(),
          column.int('attribute_id'),
          column.string('name'),
          column.int('parent_id', { isNullable: true }),
          // parent_id or 0: a unique key over NULLs would not stop duplicate top-level names.
          column.int('parent_key', { default: 0 }),
          column.createdAt(),
          column.updatedAt(),
        ],
        uniques: [{ columnNames: ['attribute_id', 'parent_key', 'name'] }],
        indices: [{ columnNames: ['parent_id'] }],
        foreignKeys: [
          cascadeTo('attribute_id', 'attributes'),
          { columnNames: ['parent_id'], referencedTableName: 'keywords', referencedColumnNames: ['id'] },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'keyword_synonyms',
        columns: [
          column.int('keyword_id', { isPrimary: true }),
          column.string('synonym', { isPrimary: true }),
        ],
        foreignKeys: [cascadeTo('keyword_id', 'keywords')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'display_attribute_groups',
        columns: [
          column.id(),
          column.string('name'),
          column.int('display_order', { default: 0 }),
          column.createdAt(),
          column.updatedAt(),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'display_attribute_group_attributes',
        columns: [
          column.int('group_id', { isPrimary: true }),
          column.int('attribute_id', { isPrimary: true }),
          column.int('position', { default: 0 }),
        ],
        indices: [{ columnNames: ['attribute_id'] }],
        foreignKeys: [
          cascadeTo('group_id', 'display_attribute_groups'),
          cascadeTo('attribute_id', 'attributes'),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'asset_types',
        columns: [column.id(), column.string('name', { length: '64', isUnique: true }), column.createdAt()],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'embedded_data_mappings',
        columns: [
          column.id(),
          column.string('type', { length: '8' }),
          column.string('tag_name'),
          column.string('display_name'),
          column.string('mapping_direction', { length: '32' }),
          column.int('attribute_id'),
          column.createdAt(),
          column.updatedAt(),
        ],
        indices: [{ columnNames: ['attribute_id'] }],
        foreignKeys: [cascadeTo('attribute_id', 'attributes')],
      }),
    );
  }

  private async seed(queryRunner: QueryRunner): Promise<void> {
    const now = new Date().toISOString().slice(0, 19).replace('T', ' ');
    for (const [
      index,
      [staticName, label, typeId, isReadOnly, isKeywordSearchable],
    ] of SYSTEM_ATTRIBUTES.entries()) {
      await queryRunner.query(
        'INSERT INTO attributes (label, static_name, type_id, is_system, is_read_only, is_keyword_searchable, ' +
          'display_order, created_at, updated_at) VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?)',
        [label, staticName, typeId, isReadOnly ? 1 : 0, isKeywordSearchable ? 1 : 0, index + 1, now, now],
      );
    }
    for (const name of ['File', 'Image', 'Video', 'Audio']) {
      await queryRunner.query('INSERT INTO asset_types (name, created_at) VALUES (?, ?)', [name, now]);
    }
    await queryRunner.query(
      'INSERT INTO display_attribute_groups (name, display_order, created_at, updated_at) VALUES (?, 1, ?, ?)',
      ['Default', now, now],
    );
    const [group] = (await queryRunner.query(
      "SELECT id FROM display_attribute_groups WHERE name = 'Default'",
    )) as Array<{
      id: number;
    }>;
    for (const [position, staticName] of ['title', 'description', 'keywords'].entries()) {
      await queryRunner.query(
        'INSERT INTO display_attribute_group_attributes (group_id, attribute_id, position) ' +
          'SELECT ?, id, ? FROM attributes WHERE static_name = ?',
        [group.id, position, staticName],
      );
    }
    for (const [type, tagName, displayName, staticName] of EMBEDDED_DATA_MAPPINGS) {
      await queryRunner.query(
        'INSERT INTO embedded_data_mappings (type, tag_name, display_name, mapping_direction, attribute_id, ' +
          "created_at, updated_at) SELECT ?, ?, ?, 'embed-to-attribute', id, ?, ? FROM attributes WHERE static_name = ?",
        [type, tagName, displayName, now, now, staticName],
      );
    }
  }
}
