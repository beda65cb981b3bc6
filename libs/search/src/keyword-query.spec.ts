import fc from 'fast-check';
import { KeywordQuery, parseKeywordQuery } from './keyword-query';

const term = (token: string, prefix = false): KeywordQuery => ({ kind: 'term', tokens: [token], prefix });

describe('parseKeywordQuery', () => {
  it('reads words side by side as AND, normalised as the index keeps them', () => {
    expect(parseKeywordQuery('Bridge  RIVÈR')).toEqual({
      kind: 'and',
      items: [term('bridge'), term('river')],
    });
  });

  it('binds NOT tightest, then AND, then OR', () => {
    expect(parseKeywordQuery('a OR b AND NOT c')).toEqual({
      kind: 'or',
      items: [term('a'), { kind: 'and', items: [term('b'), { kind: 'not', item: term('c') }] }],
    });
  });

  it('groups with parentheses and reads quoted phrases as all their words, operators included', () => {
    expect(parseKeywordQuery('(a OR b) c')).toEqual({
      kind: 'and',
      items: [{ kind: 'or', items: [term('a'), term('b')] }, term('c')],
    });
    expect(parseKeywordQuery('"tower AND bridge"')).toEqual({
      kind: 'and',
      items: [term('tower'), term('and'), term('bridge')],
    });
  });

  it('takes a trailing * as a prefix of the last token and a lone * as everything', () => {
    expect(parseKeywordQuery('bri*')).toEqual(term('bri', true));
    expect(parseKeywordQuery("o'bri*")).toEqual({ kind: 'term', tokens: ['o', 'bri'], prefix: true });
    expect(parseKeywordQuery('*')).toEqual({ kind: 'all' });
  });

  it('treats lower-case operators as words and drops words without letters or digits', () => {
    expect(parseKeywordQuery('this and that')).toEqual({
      kind: 'and',
      items: [term('this'), term('and'), term('that')],
    });
    expect(parseKeywordQuery('bridge -- !!')).toEqual(term('bridge'));
    expect(parseKeywordQuery('  ')).toBeUndefined();
    expect(parseKeywordQuery('!! OR ??')).toBeUndefined();
  });

  it.each([
    ['bridge AND', term('bridge')],
    ['NOT', undefined],
    ['OR bridge', term('bridge')],
    ['(bridge', term('bridge')],
    ['bridge)', term('bridge')],
    ['a AND OR b', { kind: 'and', items: [term('a'), term('b')] }],
    ['"tower bridge', { kind: 'and', items: [term('tower'), term('bridge')] }],
    ['tower" OR (bridge', { kind: 'and', items: [term('tower'), term('bridge')] }],
    ['NOT NOT', undefined],
    [')(', undefined],
    ['* : -', { kind: 'all' }],
    [
      'title:bridge -river',
      { kind: 'and', items: [{ kind: 'term', tokens: ['title', 'bridge'], prefix: false }, term('river')] },
    ],
  ] as Array<[string, KeywordQuery | undefined]>)(
    'reads %j leniently (malformed input as plain terms)',
    (input, expected) => {
      expect(parseKeywordQuery(input)).toEqual(expected);
    },
  );

  it('keeps the first 32 words (64 tokens) of a query that has more', () => {
    const words = Array.from({ length: 40 }, (_, i) => `w${i}`);
    expect(parseKeywordQuery(words.join(' '))).toEqual({
      kind: 'and',
      items: words.slice(0, 32).map((word) => term(word)),
    });
    // Well formed but too long: plain terms, so the ORs are dropped.
    expect(parseKeywordQuery(words.join(' OR '))).toEqual({
      kind: 'and',
      items: words.slice(0, 32).map((word) => term(word)),
    });
    const tokens = Array.from({ length: 70 }, (_, i) => `t${i}`);
    expect(parseKeywordQuery(`${tokens.join('-')}*`)).toEqual({
      kind: 'term',
      tokens: tokens.slice(0, 64),
      prefix: false,
    });
    expect(parseKeywordQuery(`a ${tokens.join('-')} b`)).toEqual({
      kind: 'and',
      items: [term('a'), { kind: 'term', tokens: tokens.slice(0, 63), prefix: false }],
    });
  });

  it('reads nesting deeper than 16 as plain terms', () => {
    expect(parseKeywordQuery(`${'('.repeat(10)}a OR b${')'.repeat(10)}`)).toEqual({
      kind: 'or',
      items: [term('a'), term('b')],
    });
    expect(parseKeywordQuery(`${'('.repeat(20)}a OR b${')'.repeat(20)}`)).toEqual({
      kind: 'and',
      items: [term('a'), term('b')],
    });
    expect(parseKeywordQuery(`${'NOT '.repeat(20)}a`)).toEqual(term('a'));
  });

  it('cuts input past 1000 characters back to a whole word and reads it as plain terms', () => {
    const long = `(bridge ${'x'.repeat(990)} river`; // 1004 characters, "river" runs past the cut
    expect(parseKeywordQuery(long)).toEqual({ kind: 'and', items: [term('bridge'), term('x'.repeat(64))] });
    expect(parseKeywordQuery('y'.repeat(5000))).toEqual(term('y'.repeat(64)));
    expect(parseKeywordQuery(`${'a OR '.repeat(200)}bb cc`)).toEqual(term('a'));
  });

  it('never throws, whatever the input', () => {
    const anyText = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 1200 }),
      fc.string({ unit: 'grapheme', maxLength: 300 }),
      fc
        .array(
          fc.constantFrom('AND', 'OR', 'NOT', '(', ')', '"', '*', ':', '-', 'a', 'b*', ' ', '\u0000', '\t'),
          {
            maxLength: 200,
          },
        )
        .map((parts) => parts.join(' ')),
      fc
        .array(fc.constantFrom('(', ')', '"', '*', ':', '-', 'x', 'AND', 'NOT'), { maxLength: 400 })
        .map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(anyText, (input) => {
        const query = parseKeywordQuery(input);
        expect(query === undefined || typeof query.kind === 'string').toBe(true);
        expect(termCount(query)).toBeLessThanOrEqual(32);
      }),
      { seed: 15, numRuns: 1000 },
    );
  });
});

function termCount(query: KeywordQuery | undefined): number {
  if (query === undefined) return 0;
  switch (query.kind) {
    case 'term':
    case 'all':
      return 1;
    case 'not':
      return termCount(query.item);
    case 'and':
    case 'or':
      return query.items.reduce((sum, item) => sum + termCount(item), 0);
  }
}
