import { TableColumnOptions, TableForeignKeyOptions } from 'typeorm';

type Extra = Partial<TableColumnOptions>;

/**
 * Column shapes that mean the same on MySQL/MariaDB and SQLite, so one migration set serves both.
 * Times are UTC `datetime`s; booleans are stored as tinyint/boolean by each driver.
 */
export const column = {
  id: (name = 'id'): TableColumnOptions => ({
    name,
    type: 'integer',
    isPrimary: true,
    isGenerated: true,
    generationStrategy: 'increment',
  }),
  int: (name: string, extra: Extra = {}): TableColumnOptions => ({ name, type: 'integer', ...extra }),
  bigint: (name: string, extra: Extra = {}): TableColumnOptions => ({ name, type: 'bigint', ...extra }),
  string: (name: string, extra: Extra = {}): TableColumnOptions => ({
    name,
    type: 'varchar',
    length: '255',
    ...extra,
  }),
  text: (name: string, extra: Extra = {}): TableColumnOptions => ({ name, type: 'text', ...extra }),
  boolean: (name: string, fallback: boolean, extra: Extra = {}): TableColumnOptions => ({
    name,
    type: 'boolean',
    default: fallback,
    ...extra,
  }),
  datetime: (name: string, extra: Extra = {}): TableColumnOptions => ({ name, type: 'datetime', ...extra }),
  createdAt: (): TableColumnOptions => ({ name: 'created_at', type: 'datetime' }),
  updatedAt: (): TableColumnOptions => ({ name: 'updated_at', type: 'datetime' }),
};

/** A foreign key from `columnName` to `table.id` whose rows go with the referenced row. */
export const cascadeTo = (columnName: string, table: string): TableForeignKeyOptions => ({
  columnNames: [columnName],
  referencedTableName: table,
  referencedColumnNames: ['id'],
  onDelete: 'CASCADE',
});
