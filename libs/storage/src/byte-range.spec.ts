import { parseRange } from './byte-range';

describe('parseRange', () => {
  it.each([
    ['bytes=0-0', 10, { start: 0, end: 0 }],
    ['bytes=2-5', 10, { start: 2, end: 5 }],
    ['bytes=2-', 10, { start: 2, end: 9 }],
    ['bytes=5-100', 10, { start: 5, end: 9 }],
    ['bytes=-3', 10, { start: 7, end: 9 }],
    ['bytes=-30', 10, { start: 0, end: 9 }],
    ['BYTES= 1 - 2', 10, { start: 1, end: 2 }],
  ])('reads %j of %d bytes', (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });

  it.each([
    ['bytes=10-', 10],
    ['bytes=10-20', 10],
    ['bytes=-0', 10],
    ['bytes=0-', 0],
    ['bytes=-5', 0],
  ])('finds %j of %d bytes unsatisfiable', (header, size) => {
    expect(parseRange(header, size)).toBe('unsatisfiable');
  });

  it.each([
    undefined,
    '',
    'bytes=',
    'bytes=-',
    'bytes=5-2',
    'items=0-1',
    'bytes=0-1,3-4',
    'bytes=a-b',
    'bytes=99999999999999999999-',
  ])('ignores %j', (header) => {
    expect(parseRange(header, 10)).toBeUndefined();
  });
});
