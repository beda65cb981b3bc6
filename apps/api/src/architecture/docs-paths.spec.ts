import * as fs from 'node:fs';
import * as path from 'node:path';
import { ARCHITECTURE_DOC, read, ROOT } from './house';

/** Repository-relative paths in a text: those that start with a top-level folder of the repository. */
export function pathsNamedIn(text: string): string[] {
  const found = text.matchAll(/(?<![\w./-])((?:apps|libs|test|docs|bench|examples|docker)\/[\w./-]*[\w/])/g);
  return [...new Set([...found].map((match) => match[1]))];
}

describe(`the paths named in ${ARCHITECTURE_DOC}`, () => {
  const named = pathsNamedIn(read(ARCHITECTURE_DOC));

  it('are read from the document (the check can fail)', () => {
    expect(named.length).toBeGreaterThan(10);
    expect(pathsNamedIn('see `libs/nowhere/src/gone.ts`, and docs/events.md.')).toEqual([
      'libs/nowhere/src/gone.ts',
      'docs/events.md',
    ]);
  });

  it('all exist', () => {
    expect(named.filter((name) => !fs.existsSync(path.join(ROOT, name)))).toEqual([]);
  });
});
