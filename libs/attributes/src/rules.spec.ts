import { InvalidInput } from '@dam/errors';
import { validateSync } from 'class-validator';
import { IsDisplayOrder, requiredText } from './rules';

/** The error `fn` throws; fails the test when it throws nothing. */
function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error, got none');
}

describe('requiredText', () => {
  const MESSAGE = 'the label is required';

  it.each([
    ['a plain value', 'Title', 'Title'],
    ['surrounding spaces', '  Title  ', 'Title'],
    ['tabs and newlines', '\tTitle\n', 'Title'],
    ['inner spaces kept', ' Date  added ', 'Date  added'],
    ['a single character', 'x', 'x'],
    ['non-Latin text', ' Überschrift ', 'Überschrift'],
  ])('accepts %s and trims it', (_case, raw, expected) => {
    expect(requiredText(raw, MESSAGE)).toBe(expected);
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['empty', ''],
    ['only spaces', '   '],
    ['only whitespace of several kinds', ' \t\r\n '],
    ['a non-breaking space', '\u00a0'],
    ['a number', 42],
    ['a boolean', true],
    ['an array of text', ['Title']],
    ['an object', { label: 'Title' }],
  ])('rejects %s with the caller’s message, as a 400', (_case, raw) => {
    const error = thrownBy(() => requiredText(raw, MESSAGE));
    expect(error).toBeInstanceOf(InvalidInput);
    expect((error as InvalidInput).message).toBe(MESSAGE);
    expect((error as InvalidInput).kind).toBe('invalid-input');
  });

  it('allows up to 255 characters by default', () => {
    const longest = 'a'.repeat(255);
    expect(requiredText(longest, MESSAGE)).toBe(longest);
  });

  it('rejects 256 characters, quoting the first 40 in the message', () => {
    const tooLong = 'b'.repeat(40) + 'c'.repeat(216);
    const error = thrownBy(() => requiredText(tooLong, MESSAGE));
    expect(error).toBeInstanceOf(InvalidInput);
    expect((error as Error).message).toBe(`${'b'.repeat(40)}... is longer than 255 characters`);
  });

  it('measures the length after trimming', () => {
    const padded = `   ${'a'.repeat(255)}   `;
    expect(requiredText(padded, MESSAGE)).toBe('a'.repeat(255));
  });

  it.each([
    [10, 'a'.repeat(10), true],
    [10, 'a'.repeat(11), false],
    [1, 'a', true],
    [1, 'ab', false],
    [1000, 'a'.repeat(1000), true],
  ])('with maxLength %i, %s is accepted: %p', (maxLength, raw, accepted) => {
    if (accepted) expect(requiredText(raw, MESSAGE, maxLength)).toBe(raw);
    else
      expect(() => requiredText(raw, MESSAGE, maxLength)).toThrow(`is longer than ${maxLength} characters`);
  });

  it('quotes a short over-long value whole, still followed by "..."', () => {
    expect(() => requiredText('abcdef', MESSAGE, 5)).toThrow('abcdef... is longer than 5 characters');
  });

  it('reports a blank value as missing, not as too long, even with a tiny maxLength', () => {
    expect(() => requiredText('    ', MESSAGE, 1)).toThrow(MESSAGE);
  });
});

describe('IsDisplayOrder', () => {
  const MESSAGE = 'displayOrder must be a whole number from 0 to 1000000';

  class Body {
    @IsDisplayOrder()
    displayOrder?: unknown;
  }

  /** The distinct messages of validating `{displayOrder: raw}`, as the error filter sends them. */
  function messages(raw: unknown): string[] {
    const body = Object.assign(new Body(), { displayOrder: raw });
    return [...new Set(validateSync(body).flatMap((error) => Object.values(error.constraints ?? {})))];
  }

  it.each([
    ['undefined', undefined],
    ['null', null],
  ])('treats %s as not given', (_case, raw) => {
    expect(messages(raw)).toEqual([]);
  });

  it.each([0, 1, 42, 999_999, 1_000_000, 7.0])('accepts %d', (raw) => {
    expect(messages(raw)).toEqual([]);
  });

  it.each([
    ['a negative number', -1],
    ['one past the maximum', 1_000_001],
    ['a fraction', 1.5],
    ['a tiny fraction', 0.0001],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['a numeric string', '3'],
    ['an empty string', ''],
    ['a boolean', true],
    ['an array', [1]],
    ['an object', { displayOrder: 1 }],
  ])('rejects %s with one message naming the range', (_case, raw) => {
    expect(messages(raw)).toEqual([MESSAGE]);
  });
});
