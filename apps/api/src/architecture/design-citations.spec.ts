import * as fs from 'node:fs';
import * as path from 'node:path';
import { read, ROOT, sourceFiles } from './house';

const DESIGN_DOC = 'docs/DESIGN.md';

/** `DESIGN §N`, with the item quoted after it when there is one (`DESIGN §12 "Trash"`, `DESIGN §12, "Previews"`). */
export function citationsIn(text: string): Array<{ section: number; item: string | undefined }> {
  return [...text.matchAll(/DESIGN(?:\.md)? §(\d+)(?:,? "([^"]+)")?/g)].map((match) => ({
    section: Number(match[1]),
    item: match[2],
  }));
}

/** The text of each numbered section (`## N. Title`) of a document. */
export function sectionsOf(text: string): Map<number, string> {
  const sections = new Map<number, string>();
  for (const part of text.split(/^(?=## \d+\. )/m)) {
    const number = /^## (\d+)\. /.exec(part);
    if (number !== null) sections.set(Number(number[1]), part);
  }
  return sections;
}

/** Every file that may cite the design: sources, specs, examples, bench, and the documents. */
function citingFiles(): string[] {
  const markdown = (dir: string) =>
    fs
      .readdirSync(path.join(ROOT, dir))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `${dir}/${name}`);
  return [
    ...['apps', 'libs', 'test', 'examples', 'bench'].flatMap((folder) => sourceFiles(folder)),
    ...markdown('docs').filter((file) => file !== DESIGN_DOC),
    ...markdown('bench/results'),
    'README.md',
    'eslint.config.mjs',
  ];
}

/**
 * `DESIGN §N` names a section of docs/DESIGN.md, whose §1-§12 keep the shared design's numbers: a citation
 * must name a section that exists, and the item it quotes must be in that section.
 */
describe(`the citations of ${DESIGN_DOC}`, () => {
  const sections = sectionsOf(read(DESIGN_DOC));
  const citations = citingFiles().flatMap((file) =>
    citationsIn(read(file)).map((citation) => ({ file, ...citation })),
  );

  it('are read from the files (the check can fail)', () => {
    expect(citations.length).toBeGreaterThan(50);
    expect(sections.size).toBeGreaterThanOrEqual(12);
    expect(citationsIn('(DESIGN §12 "Trash"), DESIGN §10, DESIGN §12, "Previews"')).toEqual([
      { section: 12, item: 'Trash' },
      { section: 10, item: undefined },
      { section: 12, item: 'Previews' },
    ]);
  });

  it('name sections that exist, and items in them', () => {
    const wrong = citations.filter(
      ({ section, item }) =>
        !sections.has(section) || (item !== undefined && !sections.get(section)!.includes(item)),
    );
    expect(wrong).toEqual([]);
  });
});
