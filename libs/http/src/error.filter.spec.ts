import { oneLine } from './error.filter';

describe('oneLine', () => {
  it('keeps ordinary messages, unicode included, as they are', () => {
    expect(oneLine('a lightbox named Café 😀 already exists for the user')).toBe(
      'a lightbox named Café 😀 already exists for the user',
    );
  });

  it('escapes line breaks and other control characters quoted from a request', () => {
    expect(oneLine('display attribute group a\nb\r\u0000\u2028c does not exist')).toBe(
      'display attribute group a\\u000ab\\u000d\\u0000\\u2028c does not exist',
    );
  });
});
