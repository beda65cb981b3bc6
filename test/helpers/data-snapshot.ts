import { DataSource } from 'typeorm';
import { storedKeys } from './stored-keys';
import { TestApp } from './test-app';

/** Every row of every table (each row as canonical JSON, sorted) and every stored object key. */
export interface DataSnapshot {
  tables: Map<string, string[]>;
  objects: string[];
}

/**
 * What a snapshot leaves out because the caller is allowed to change it: per table a SQL condition
 * (with parameters) selecting the rows to keep, and a test for object keys to ignore.
 */
export interface SnapshotScope {
  keepRows?: Record<string, { where: string; parameters: unknown[] }>;
  ignoreObject?: (key: string) => boolean;
}

/**
 * Reads the whole database and storage of a test app, to prove that a series of requests changed
 * nothing it should not have. Meant for the small databases of e2e specs.
 */
export async function takeSnapshot(
  t: TestApp,
  scope: SnapshotScope = {},
  withObjects = true,
): Promise<DataSnapshot> {
  const dataSource = t.app.get(DataSource);
  const tables = new Map<string, string[]>();
  for (const table of await tableNames(dataSource)) {
    const keep = scope.keepRows?.[table];
    const rows: Array<Record<string, unknown>> = await dataSource.query(
      `SELECT * FROM ${table}${keep === undefined ? '' : ` WHERE ${keep.where}`}`,
      keep?.parameters ?? [],
    );
    tables.set(table, rows.map(canonicalRow).sort());
  }
  const objects = withObjects
    ? (await storedKeys(t, '')).filter((key) => !(scope.ignoreObject?.(key) ?? false))
    : [];
  return { tables, objects };
}

/**
 * A cheap digest of every table (no scope, no storage): equal digests mean no row changed. MySQL
 * checksums all tables in one statement; SQLite is in-process, so there it is the rows themselves.
 */
export async function databaseDigest(t: TestApp): Promise<string> {
  const dataSource = t.app.get(DataSource);
  if (dataSource.options.type === 'better-sqlite3') {
    return JSON.stringify([...(await takeSnapshot(t, {}, false)).tables]);
  }
  const names = await tableNames(dataSource);
  const rows: Array<{ Table: string; Checksum: unknown }> = await dataSource.query(
    `CHECKSUM TABLE ${names.map((name) => `\`${name}\``).join(', ')}`,
  );
  return rows.map((row) => `${row.Table}=${String(row.Checksum)}`).join(' ');
}

/** The differences between two snapshots, one line each (at most `limit`), or [] when they are equal. */
export function snapshotDifferences(before: DataSnapshot, after: DataSnapshot, limit = 20): string[] {
  const lines: string[] = [];
  const names = new Set([...before.tables.keys(), ...after.tables.keys()]);
  for (const name of [...names].sort()) {
    lines.push(...listDifferences(`${name}: `, before.tables.get(name) ?? [], after.tables.get(name) ?? []));
  }
  lines.push(...listDifferences('object ', before.objects, after.objects));
  return lines.slice(0, limit);
}

function listDifferences(label: string, before: string[], after: string[]): string[] {
  const beforeSet = new Set(before);
  const afterSet = new Set(after);
  return [
    ...before.filter((entry) => !afterSet.has(entry)).map((entry) => `- ${label}${entry}`),
    ...after.filter((entry) => !beforeSet.has(entry)).map((entry) => `+ ${label}${entry}`),
  ];
}

async function tableNames(dataSource: DataSource): Promise<string[]> {
  const rows: Array<{ name: string }> =
    dataSource.options.type === 'better-sqlite3'
      ? await dataSource.query(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
        )
      : await dataSource.query(
          'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()',
        );
  return rows.map((row) => row.name).sort();
}

function canonicalRow(row: Record<string, unknown>): string {
  const entries = Object.keys(row)
    .sort()
    .map((column) => [column, canonicalValue(row[column])]);
  return JSON.stringify(Object.fromEntries(entries));
}

function canonicalValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Buffer.isBuffer(value)) return `0x${value.toString('hex')}`;
  if (typeof value === 'bigint') return value.toString();
  return value;
}
