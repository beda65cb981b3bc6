import { negotiate } from './negotiation';

describe('negotiate (JSON or XML from Accept)', () => {
  it.each([
    // [Accept, xmlByDefault, expected]
    [undefined, false, 'json'],
    [undefined, true, 'xml'],
    ['', true, 'xml'],
    ['*/*', false, 'json'],
    ['*/*', true, 'xml'],
    ['application/*', true, 'xml'],
    ['application/json', true, 'json'],
    ['application/xml', false, 'xml'],
    ['text/xml', false, 'xml'],
    ['TEXT/XML', false, 'xml'],
    ['application/json, application/xml', true, 'json'],
    ['application/xml, application/json', false, 'xml'],
    ['application/json;q=0.5, application/xml', false, 'xml'],
    ['application/xml;q=0.5, application/json', true, 'json'],
    ['application/xml;q=0.9, */*;q=0.8', false, 'xml'],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', false, 'xml'],
    ['text/xml, */*', false, 'xml'],
    ['application/json, */*', true, 'json'],
    ['application/json;q=0, */*', false, 'xml'],
    ['application/xml;q=0, text/xml;q=0, */*', true, 'json'],
    ['application/xml;q=0, text/xml', false, 'xml'],
    ['application/json;q=abc', false, 'json'],
    ['garbage', true, 'xml'],
  ] as const)('Accept %p (xml by default: %p) gives %s', (accept, byDefault, expected) => {
    expect(negotiate(accept, byDefault)).toBe(expected);
  });

  it.each([
    'text/html',
    'image/*',
    'application/json;q=0',
    'application/json;q=0, application/xml;q=0, */*;q=0',
  ])('Accept %p allows neither: none (406)', (accept) => {
    expect(negotiate(accept, false)).toBe('none');
    expect(negotiate(accept, true)).toBe('none');
  });
});
