import { validUsername } from './username';

describe('validUsername', () => {
  it('trims and NFKC-normalises', () => {
    expect(validUsername('  ｂｏｂ ', 'latin')).toBe('bob');
    expect(validUsername('ﬁona', 'latin')).toBe('fiona');
    expect(validUsername('Cafe\u0301', 'latin')).toBe('Café');
  });

  it('allows Latin letters, digits and email symbols by default', () => {
    for (const name of ['application', "jean-luc.o'neil+dam@example.com", 'p50%off_x', 'Zoë', 'Łukasz']) {
      expect(validUsername(name, 'latin')).toBe(name);
    }
  });

  it('refuses look-alikes from other scripts, spaces and other digits, unless `any`', () => {
    for (const name of ['bоb', 'ΑΒΓ', 'two words', '١٢٣', 'bob😀']) {
      expect(() => validUsername(name, 'latin')).toThrow(/letters of the Latin script/);
      expect(validUsername(name, 'any')).toBe(name);
    }
  });

  it('refuses empty, overlong and control characters in either mode', () => {
    for (const mode of ['latin', 'any'] as const) {
      expect(() => validUsername(' ', mode)).toThrow('you must supply a username');
      expect(() => validUsername(7, mode)).toThrow('you must supply a username');
      expect(() => validUsername('a'.repeat(256), mode)).toThrow(/1 to 255/);
      expect(() => validUsername('a\u0085b', mode)).toThrow(/control characters/);
    }
  });
});
