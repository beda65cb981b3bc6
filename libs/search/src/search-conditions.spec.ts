import { parseKeywordQuery } from './keyword-query';
import { keywordSql, SqlParams } from './search-conditions';
import { matchedIds } from './search-planner.service';

describe('keywordSql', () => {
  const sql = (query: string, attributes = [1, 2]) => {
    const params = new SqlParams();
    const parsed = parseKeywordQuery(query);
    if (parsed === undefined) throw new Error('empty');
    return { text: keywordSql(parsed, attributes, params), values: params.values };
  };

  it('matches a word through the token index of the searchable attributes', () => {
    expect(sql('bridge')).toEqual({
      text: 'a.id IN (SELECT t.asset_id FROM asset_search_tokens t WHERE t.token = :s1 AND t.attribute_id IN (:...s0))',
      values: { s0: [1, 2], s1: 'bridge' },
    });
  });

  it('turns a prefix into a range on the token and an OR of words into one index scan', () => {
    const prefix = sql('bri*', [3]);
    expect(prefix.text).toContain('(t.token >= :s1 AND t.token < :s2) AND t.attribute_id = :s0');
    expect(prefix.values).toMatchObject({ s1: 'bri', s2: 'brj' });
    expect(sql('a OR b').text).toBe(
      'a.id IN (SELECT t.asset_id FROM asset_search_tokens t WHERE (t.token = :s1 OR t.token = :s2) AND t.attribute_id IN (:...s0))',
    );
  });

  it('negates with NOT and matches nothing when no attribute is searchable', () => {
    expect(sql('a NOT b').text).toMatch(/^\(a\.id IN .* AND NOT \(a\.id IN .*\)\)$/);
    expect(sql('a', []).text).toBe('1 = 0');
    expect(sql('NOT a', []).text).toBe('NOT (1 = 0)');
  });
});

describe('matchedIds', () => {
  const tree = [
    { id: 1, parentId: null },
    { id: 2, parentId: 1 },
    { id: 3, parentId: 2 },
    { id: 4, parentId: null },
  ];

  it('adds all descendants when implicit members are asked for', () => {
    expect(matchedIds(tree, [1], true, 'p', 'category')).toEqual([1, 2, 3]);
    expect(matchedIds(tree, [2, 4], false, 'p', 'category')).toEqual([2, 4]);
  });

  it('refuses ids that name nothing', () => {
    expect(() => matchedIds(tree, [9], false, 'p', 'category')).toThrow('p 9 names no category');
  });
});
