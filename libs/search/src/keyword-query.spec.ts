import { DomainError } from '@dam/platform';
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
    ['bridge AND', 'keywords ends with an operator'],
    ['NOT', 'keywords ends with an operator'],
    ['OR bridge', 'keywords has "OR" where a word was expected'],
    ['(bridge', 'keywords has an unmatched "("'],
    ['bridge)', 'keywords has an unmatched ")"'],
    ['a AND OR b', 'keywords has "OR" where a word was expected'],
  ])('refuses %j: %s', (input, message) => {
    expect(() => parseKeywordQuery(input)).toThrow(message);
  });

  it('bounds the size of a query and names the parameter in errors', () => {
    expect(() => parseKeywordQuery('w '.repeat(33))).toThrow('keywords has more than 32 words');
    expect(() => parseKeywordQuery('x'.repeat(1001))).toThrow('keywords must be at most 1000 characters');
    expect(() => parseKeywordQuery('a AND', 'attribute_7')).toThrow('attribute_7 ends with an operator');
    try {
      parseKeywordQuery('(');
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).kind).toBe('invalid-input');
    }
  });
});
