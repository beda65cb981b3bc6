import { negotiateLanguage, parseAcceptLanguage } from './accept-language';

describe('parseAcceptLanguage', () => {
  it('is empty for a missing or empty header', () => {
    expect(parseAcceptLanguage(undefined)).toEqual([]);
    expect(parseAcceptLanguage('')).toEqual([]);
  });

  it('orders tags by quality, keeping the header order among equals', () => {
    expect(parseAcceptLanguage('fr;q=0.5, de, en-GB;q=0.8, es')).toEqual(['de', 'es', 'en-gb', 'fr']);
  });

  it('lower-cases tags and tolerates whitespace around parameters', () => {
    expect(parseAcceptLanguage(' DE-ch ; q=0.9 ,EN')).toEqual(['en', 'de-ch']);
  });

  it('drops tags with q=0 and malformed entries', () => {
    expect(parseAcceptLanguage('en;q=0, de, 12, <script>, fr_FR, ')).toEqual(['de']);
  });

  it('treats an unreadable quality as 0', () => {
    expect(parseAcceptLanguage('en;q=abc, de;q=0.1')).toEqual(['de']);
  });

  it('keeps the wildcard', () => {
    expect(parseAcceptLanguage('*;q=0.1, nl')).toEqual(['nl', '*']);
  });

  it('ignores an absurdly long header', () => {
    expect(parseAcceptLanguage(`en,${'x'.repeat(2000)}`)).toEqual([]);
  });
});

describe('negotiateLanguage', () => {
  const configured = ['en', 'de', 'fr-ca'];

  it('picks the first accepted language that is configured', () => {
    expect(negotiateLanguage(['es', 'de', 'en'], configured)).toBe('de');
  });

  it('matches a regional tag to its configured primary language', () => {
    expect(negotiateLanguage(['de-at'], configured)).toBe('de');
  });

  it('matches a primary tag to a configured regional language', () => {
    expect(negotiateLanguage(['fr'], configured)).toBe('fr-ca');
  });

  it('prefers an exact match over a primary-subtag match of the same entry', () => {
    expect(negotiateLanguage(['fr-ca'], ['fr', 'fr-ca'])).toBe('fr-ca');
  });

  it('falls back to the default (first configured) language', () => {
    expect(negotiateLanguage([], configured)).toBe('en');
    expect(negotiateLanguage(['ja', 'zh-tw'], ['de', 'en'])).toBe('de');
    expect(negotiateLanguage(['*'], ['de', 'en'])).toBe('de');
  });

  it('works end to end from a header', () => {
    expect(negotiateLanguage(parseAcceptLanguage('it, de-DE;q=0.9, en;q=0.8'), configured)).toBe('de');
    expect(negotiateLanguage(parseAcceptLanguage('garbage!!'), configured)).toBe('en');
  });
});
