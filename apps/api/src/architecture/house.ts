import * as fs from 'node:fs';
import * as path from 'node:path';

/** Reading the house for the architecture specs: the repository's files, and docs/architecture.md. */
export const ROOT = path.resolve(__dirname, '../../../..');

export const ARCHITECTURE_DOC = 'docs/architecture.md';

export function read(relativePath: string): string {
  return fs.readFileSync(path.join(ROOT, relativePath), 'utf8');
}

/** The .ts files under a folder of the repository, as repository-relative paths. */
export function sourceFiles(folder: string): string[] {
  const walk = (dir: string): string[] =>
    fs
      .readdirSync(path.join(ROOT, dir), { withFileTypes: true })
      .flatMap((entry) =>
        entry.isDirectory()
          ? walk(`${dir}/${entry.name}`)
          : entry.name.endsWith('.ts')
            ? [`${dir}/${entry.name}`]
            : [],
      );
  return walk(folder);
}

export function libNames(): string[] {
  return fs
    .readdirSync(path.join(ROOT, 'libs'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/**
 * The owner of each table, from the table of "Floors and owners" in docs/architecture.md: its second
 * column names the lib (`name`), its third the tables it owns, separated by commas.
 */
export function tableOwners(): Map<string, string> {
  const doc = read(ARCHITECTURE_DOC);
  const section = doc.slice(doc.indexOf('## Floors and owners'));
  const owners = new Map<string, string>();
  for (const line of section.split('\n').slice(1)) {
    if (line.startsWith('## ')) break;
    const cells = line.split('|').map((cell) => cell.trim());
    if (cells.length < 4 || !/^\d+$/.test(cells[1])) continue;
    const lib = /^`([a-z0-9-]+)`$/.exec(cells[2])?.[1];
    if (lib === undefined) continue;
    for (const table of cells[3].split(',').map((name) => name.trim())) {
      if (!/^[a-z][a-z0-9_]*$/.test(table)) continue;
      if (owners.has(table)) throw new Error(`${table} has two owners: ${owners.get(table)} and ${lib}`);
      owners.set(table, lib);
    }
  }
  return owners;
}
