import { exactValueToken, exceedsExactToken, searchTokens, tokenRows, valueTokens } from './search-tokens';

describe('search tokens', () => {
  it('lower-cases, strips accents and splits on anything but letters and digits', () => {
    expect(searchTokens('Crème Brûlée, Zürich-2024 & O’Brien')).toEqual([
      'creme',
      'brulee',
      'zurich',
      '2024',
      'o',
      'brien',
    ]);
  });

  it('keeps each token once and folds ß, ligatures and dotted capitals', () => {
    expect(searchTokens('Straße STRASSE ﬁsh İstanbul')).toEqual(['strasse', 'fish', 'istanbul']);
  });

  it('keeps letters of every script and cuts tokens to 64 characters', () => {
    expect(searchTokens('東京 москва')).toEqual(['東京', 'москва']);
    expect(searchTokens('x'.repeat(100))).toEqual(['x'.repeat(64)]);
  });

  it('gives nothing for punctuation only', () => {
    expect(searchTokens(' -- !! ')).toEqual([]);
  });

  it('indexes words of text-like types and one exact token of value types', () => {
    expect(valueTokens(1, 'Tower Bridge')).toEqual(['tower', 'bridge']);
    expect(valueTokens(6, 'Dark Red')).toEqual(['dark', 'red', '=dark red']);
    expect(valueTokens(3, '2024-01-05')).toEqual(['=2024-01-05']);
    expect(valueTokens(10, '3,4')).toEqual([]);
  });

  it('marks values too long for their exact token', () => {
    expect(exactValueToken('A'.repeat(80))).toHaveLength(64);
    expect(exceedsExactToken('a'.repeat(63))).toBe(false);
    expect(exceedsExactToken('a'.repeat(64))).toBe(true);
  });
});

describe('token rows', () => {
  it('gives each (token, asset, attribute) once across languages', () => {
    const values = [
      { assetId: 1, attributeId: 1, typeId: 1, value: 'Tower bridge' },
      { assetId: 1, attributeId: 1, typeId: 1, value: 'Pont de la tour (bridge)' },
      { assetId: 1, attributeId: 2, typeId: 2, value: 'bridge' },
    ];
    expect(tokenRows(values)).toEqual([
      ['tower', 1, 1],
      ['bridge', 1, 1],
      ['pont', 1, 1],
      ['de', 1, 1],
      ['la', 1, 1],
      ['tour', 1, 1],
      ['bridge', 1, 2],
    ]);
  });
});
