import * as ts from 'typescript';
import { libNames, read, sourceFiles, tableOwners } from './house';

/**
 * One owner per table (docs/architecture.md, "Three rules"): a lib's SQL text names only the tables it
 * owns. The migrations are the one named exception: the schema's history names every lib's tables.
 */
const EXEMPT_LIBS = new Set(['migrations']);

/** References found today that another change removes; each with its reason. Keep it empty. */
const KNOWN: ReadonlyArray<{ file: string; table: string; why: string }> = [];

/** Query-builder methods whose first argument names a table. */
const TABLE_ARGUMENT = /^(from|into|update|delete|innerJoin|leftJoin|innerJoinAndSelect|leftJoinAndSelect)$/;

/** The text of every string and template literal of a file, in order, and the tables named as arguments. */
function literalsOf(file: string): { texts: string[]; tableArguments: string[] } {
  const source = ts.createSourceFile(file, read(file), ts.ScriptTarget.ES2022, true);
  const texts: string[] = [];
  const tableArguments: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) texts.push(node.text);
    else if (ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node))
      texts.push(node.text);
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      TABLE_ARGUMENT.test(node.expression.name.text) &&
      node.arguments.length > 0 &&
      ts.isStringLiteral(node.arguments[0])
    )
      tableArguments.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { texts, tableArguments };
}

/** The tables a file's literals name: after an SQL keyword, as a query builder's table, or (with an underscore) anywhere. */
export function tablesNamedIn(file: string, tables: ReadonlySet<string>): Set<string> {
  const { texts, tableArguments } = literalsOf(file);
  const named = new Set(tableArguments.filter((name) => tables.has(name)));
  // Adjacent literals are joined: SQL is often written as 'SELECT ... FROM ' + 'assets a ...'.
  const text = texts.join(' ');
  for (const match of text.matchAll(/\b(?:FROM|JOIN|INTO|UPDATE|TABLE|EXISTS)\s+[`"]?([a-z][a-z0-9_]*)/g))
    if (tables.has(match[1])) named.add(match[1]);
  for (const word of text.matchAll(/[a-z][a-z0-9]*(?:_[a-z0-9]+)+/g))
    if (tables.has(word[0])) named.add(word[0]);
  return named;
}

describe('table owners (docs/architecture.md)', () => {
  const owners = tableOwners();
  const tables = new Set(owners.keys());

  it('reads the owner of every table the migrations create', () => {
    const created = sourceFiles('libs/migrations/src').flatMap((file) => [
      ...[...read(file).matchAll(/new Table\(\{\s*name: '([a-z0-9_]+)'/g)].map((match) => match[1]),
      ...[...read(file).matchAll(/CREATE TABLE [`"]?([a-z0-9_]+)/g)].map((match) => match[1]),
    ]);
    expect(created.length).toBeGreaterThan(30);
    expect(created.filter((table) => !owners.has(table))).toEqual([]);
    expect([...owners.values()].filter((lib) => !libNames().includes(lib))).toEqual([]);
  });

  it("finds SQL on another lib's table in a lib (the check can fail)", () => {
    expect([...tablesNamedIn('libs/assets/src/tallies/asset-level-sets.ts', tables)]).toContain('assets');
  });

  it('keeps no exception that is gone (remove it from KNOWN)', () => {
    const gone = KNOWN.filter((known) => !tablesNamedIn(known.file, tables).has(known.table));
    expect(gone.map((known) => `${known.file}: ${known.table}`)).toEqual([]);
  });

  it.each(libNames().filter((lib) => !EXEMPT_LIBS.has(lib)))('lib %s names only its own tables', (lib) => {
    const foreign = sourceFiles(`libs/${lib}/src`)
      .filter((file) => !file.endsWith('.spec.ts'))
      .flatMap((file) =>
        [...tablesNamedIn(file, tables)]
          .filter((table) => owners.get(table) !== lib)
          .filter((table) => !KNOWN.some((known) => known.file === file && known.table === table))
          .map((table) => `${file} names ${table} (owned by ${owners.get(table)})`),
      );
    expect(foreign).toEqual([]);
  });
});
