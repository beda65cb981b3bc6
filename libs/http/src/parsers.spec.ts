import { InvalidInput } from '@dam/errors';
import { parseWholeNumber, requireWholeNumber } from './parsers';

describe('parseWholeNumber', () => {
  const SIDE = { min: 1, max: 4096 };

  it.each([undefined, null, ''])('reads %p in a query as absent', (raw) => {
    expect(parseWholeNumber(raw, 'width', SIDE)).toBeUndefined();
  });

  it.each([
    ['1', 1],
    ['4096', 4096],
    ['0007', 7],
  ])('reads the digits %p in a query as %p', (raw, value) => {
    expect(parseWholeNumber(raw, 'width', SIDE)).toBe(value);
  });

  it.each(['0', '4097', '-1', '1.5', '1e3', '0x1', ' 7', 'seven', '1234567890'])(
    'refuses %p with the bounds in the message',
    (raw) => {
      expect(() => parseWholeNumber(raw, 'width', SIDE)).toThrow(
        new InvalidInput('width must be a whole number from 1 to 4096'),
      );
    },
  );

  it('names only the lower bound when there is no upper one, and refuses a number in a query', () => {
    expect(parseWholeNumber('123456789', 'page', { min: 0 })).toBe(123456789);
    expect(() => parseWholeNumber(3, 'page', { min: 0 })).toThrow(
      'page must be a whole number of at least 0',
    );
  });

  it('reads a JSON number (7.0 is 7) and refuses a string or an empty string there', () => {
    const json = { min: 0, max: 10, json: true };
    expect(parseWholeNumber(7.0, 'displayOrder', json)).toBe(7);
    expect(parseWholeNumber(null, 'displayOrder', json)).toBeUndefined();
    for (const raw of ['3', '', 1.5, Number.NaN, Number.POSITIVE_INFINITY, 11]) {
      expect(() => parseWholeNumber(raw, 'displayOrder', json)).toThrow(
        'displayOrder must be a whole number from 0 to 10',
      );
    }
  });

  it('requireWholeNumber refuses the absent value like any other', () => {
    expect(requireWholeNumber('5', 'the chunk number', { min: 0, max: 9 })).toBe(5);
    expect(() => requireWholeNumber(undefined, 'the chunk number', { min: 0, max: 9 })).toThrow(
      'the chunk number must be a whole number from 0 to 9',
    );
  });
});
