import { KeywordEntity } from '../entities/keyword.entity';
import { buildKeywordForest, KeywordNode } from './keyword-tree';

const AT = new Date('2024-01-01T00:00:00Z');

function keyword(id: number, name: string, parentId: number | null = null): KeywordEntity {
  return { id, attributeId: 7, name, parentId, parentKey: parentId ?? 0, createdAt: AT, updatedAt: AT };
}

function forest(keywords: KeywordEntity[], synonyms: Record<number, string[]> = {}) {
  return buildKeywordForest({
    keywords,
    synonyms: new Map(Object.entries(synonyms).map(([id, list]) => [Number(id), list])),
  });
}

/** The tree as nested names, for readable expectations. */
type Shape = string | [string, Shape[]];
function shape(nodes: KeywordNode[]): Shape[] {
  return nodes.map((node) =>
    node.children.length === 0 ? node.item.name : [node.item.name, shape(node.children)],
  );
}

describe('buildKeywordForest', () => {
  it('gives an empty forest for no keywords', () => {
    const { roots, byId } = forest([]);
    expect(roots).toEqual([]);
    expect(byId.size).toBe(0);
  });

  it('nests children under their parents whatever order the rows come in', () => {
    const rows = [
      keyword(4, 'Poodle', 3),
      keyword(3, 'Dogs', 1),
      keyword(1, 'Animals'),
      keyword(2, 'Cats', 1),
      keyword(5, 'Places'),
    ];
    expect(shape(forest(rows).roots)).toEqual([['Animals', ['Cats', ['Dogs', ['Poodle']]]], 'Places']);
    expect(shape(forest([...rows].reverse()).roots)).toEqual(shape(forest(rows).roots));
  });

  it.each<[string, KeywordEntity[], string[]]>([
    [
      'alphabetically, ignoring case',
      [keyword(1, 'banana'), keyword(2, 'Apple'), keyword(3, 'cherry'), keyword(4, 'Date')],
      ['Apple', 'banana', 'cherry', 'Date'],
    ],
    [
      'names equal but for case by id',
      [keyword(9, 'apple'), keyword(3, 'APPLE'), keyword(5, 'Apple')],
      ['APPLE', 'Apple', 'apple'],
    ],
    ['names equal but for accents by id', [keyword(2, 'Cafe'), keyword(1, 'Café')], ['Café', 'Cafe']],
    [
      'accented letters with their base letter',
      [keyword(1, 'Zebra'), keyword(2, 'Éclair')],
      ['Éclair', 'Zebra'],
    ],
  ])('sorts siblings %s', (_case, rows, expected) => {
    const { roots } = forest(rows);
    expect(roots.map((node) => node.item.name)).toEqual(expected);
    // the same rule holds one level down
    const nested = forest([keyword(100, 'root'), ...rows.map((row) => ({ ...row, parentId: 100 }))]);
    expect(nested.roots[0].children.map((node) => node.item.name)).toEqual(expected);
  });

  it('indexes every keyword by id, the same node objects as in the tree', () => {
    const { roots, byId } = forest([keyword(1, 'Animals'), keyword(2, 'Cats', 1), keyword(3, 'Places')]);
    expect([...byId.keys()].sort()).toEqual([1, 2, 3]);
    expect(byId.get(1)).toBe(roots[0]);
    expect(byId.get(2)).toBe(roots[0].children[0]);
    expect(byId.get(2)?.item.name).toBe('Cats');
  });

  it('shows a keyword whose parent is not among the rows at top level rather than losing it', () => {
    const { roots } = forest([keyword(1, 'Animals'), keyword(2, 'Stray', 99)]);
    expect(shape(roots)).toEqual(['Animals', 'Stray']);
  });

  it('attaches synonyms sorted case-insensitively, without changing the caller’s list', () => {
    const given = ['pup', 'Hound', 'canine'];
    const { byId } = forest([keyword(1, 'Dog')], { 1: given });
    expect(byId.get(1)?.synonyms).toEqual(['canine', 'Hound', 'pup']);
    expect(given).toEqual(['pup', 'Hound', 'canine']);
  });

  it('gives a keyword without synonyms an empty list, and ignores synonyms of unknown keywords', () => {
    const { byId } = forest([keyword(1, 'Dog'), keyword(2, 'Cat')], { 1: ['hound'], 42: ['orphan'] });
    expect(byId.get(2)?.synonyms).toEqual([]);
    expect(byId.has(42)).toBe(false);
  });

  it('leaves out keywords caught in a cycle (data edited by hand) instead of looping', () => {
    const { roots, byId } = forest([keyword(1, 'Animals'), keyword(2, 'A', 3), keyword(3, 'B', 2)]);
    expect(shape(roots)).toEqual(['Animals']);
    expect(byId.has(2)).toBe(false);
  });
});
