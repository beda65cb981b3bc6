import { parse } from 'csv-parse/sync';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { CategoryRef, ImportRow, ManifestError } from './import-row';

const COLUMNS = new Set(['path', 'title', 'description', 'keywords', 'accessLevels', 'categories']);
const ATTRIBUTE_PREFIX = 'attr:';

interface Parsed {
  record: string[];
  info: { lines: number; raw?: string };
}

/**
 * Reads and checks a whole CSV manifest before anything is sent: the header (a `path` column, the
 * known columns, `attr:<label>`), and every row's path, ids and name paths. `defaultLevel` is the
 * `--access-level` given, if any. Throws ManifestError naming the line.
 */
export async function readManifest(manifest: string, defaultLevel: number | undefined): Promise<ImportRow[]> {
  let records: Parsed[];
  try {
    records = parse(await readFile(manifest), {
      bom: true,
      info: true,
      raw: true,
      skip_empty_lines: true,
    }) as unknown as Parsed[];
  } catch (error) {
    const { lines, message } = error as { lines?: number; message: string };
    throw new ManifestError(`${manifest} line ${lines ?? 1}: ${message.replace(/^Invalid[^:]*: /, '')}`);
  }
  if (records.length === 0)
    throw new ManifestError(`${manifest} line 1: the manifest is empty (no header row)`);
  const [header, ...rows] = records;
  const columns = header.record.map((name) => name.trim());
  checkHeader(manifest, startLine(header), columns);
  const base = path.dirname(path.resolve(manifest));
  return rows.map((row) => readRow(manifest, base, startLine(row), columns, row.record, defaultLevel));
}

/** The first line of a record (`info.lines` is its last). */
function startLine({ info }: Parsed): number {
  const breaks = (info.raw ?? '').replace(/\r?\n$/, '').split('\n').length - 1;
  return info.lines - breaks;
}

function checkHeader(manifest: string, line: number, columns: string[]): void {
  const fail = (reason: string) => new ManifestError(`${manifest} line ${line}: ${reason}`);
  const seen = new Set<string>();
  for (const column of columns) {
    if (seen.has(column)) throw fail(`the column "${column}" is given twice`);
    seen.add(column);
    if (column.startsWith(ATTRIBUTE_PREFIX)) {
      if (column.slice(ATTRIBUTE_PREFIX.length).trim() === '') throw fail(`"${column}" names no attribute`);
    } else if (!COLUMNS.has(column)) {
      throw fail(
        `unknown column "${column}" (use path, title, description, keywords, accessLevels, categories or attr:<attribute label>)`,
      );
    }
  }
  if (!seen.has('path')) throw fail('the header has no "path" column');
}

function readRow(
  manifest: string,
  base: string,
  line: number,
  columns: string[],
  cells: string[],
  defaultLevel: number | undefined,
): ImportRow {
  const fail = (reason: string) => new ManifestError(`${manifest} line ${line}: ${reason}`);
  const cell = (name: string): string | undefined => {
    const index = columns.indexOf(name);
    const value = index < 0 ? undefined : cells[index]?.trim();
    return value === '' ? undefined : value;
  };
  const relative = cell('path');
  if (relative === undefined) throw fail('the path is empty');
  if (path.isAbsolute(relative) || /^[a-z]:[\\/]/i.test(relative)) {
    throw fail(`the path "${relative}" must be relative to the manifest`);
  }
  const levels = list(cell('accessLevels')).map((item) => {
    if (!/^\d{1,10}$/.test(item) || Number(item) < 1)
      throw fail(`accessLevels: "${item}" is not an access level id`);
    return Number(item);
  });
  if (levels.length === 0 && defaultLevel === undefined) {
    throw fail('no access level: fill the accessLevels column or give --access-level');
  }
  const keywords = list(cell('keywords'));
  return {
    line,
    path: relative.replace(/\\/g, '/'),
    file: path.resolve(base, relative),
    title: cell('title'),
    description: cell('description'),
    keywords: keywords.length === 0 ? undefined : keywords,
    accessLevels: levels.length === 0 ? undefined : levels,
    categories: list(cell('categories')).map((item) => categoryRef(item, fail)),
    attributes: columns.flatMap((column, index) => {
      const value = cells[index]?.trim() ?? '';
      return column.startsWith(ATTRIBUTE_PREFIX) && value !== ''
        ? [{ label: column.slice(ATTRIBUTE_PREFIX.length).trim(), value }]
        : [];
    }),
  };
}

/** `;`-separated items, trimmed, empty ones dropped. */
function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(';')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** Digits are an id; anything else a `/`-joined name path (a leading `/` makes digits a name: `/2024`). */
function categoryRef(item: string, fail: (reason: string) => Error): CategoryRef {
  if (/^\d+$/.test(item)) {
    if (item.length > 10 || Number(item) < 1) throw fail(`categories: "${item}" is not a category id`);
    return { id: Number(item) };
  }
  const names = item
    .split('/')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) throw fail(`categories: "${item}" names no category`);
  const long = names.find((name) => name.length > 255);
  if (long !== undefined)
    throw fail(`categories: the name "${long.slice(0, 40)}..." is longer than 255 characters`);
  return { path: names };
}
