import { memoByHeader } from './header-memo';

describe('memoByHeader', () => {
  it('computes each text once and answers the kept value after', () => {
    const compute = jest.fn((text: string | undefined) => Object.freeze([text ?? 'none']));
    const memo = memoByHeader(2, compute);
    const first = memo('de, en;q=0.5');
    expect(memo('de, en;q=0.5')).toBe(first);
    expect(memo(undefined)).toBe(memo(undefined));
    expect(compute).toHaveBeenCalledTimes(2);
  });

  it('keeps no more than its limit of texts, and computes the others each time', () => {
    const compute = jest.fn((text: string | undefined) => ({ text }));
    const memo = memoByHeader(2, compute);
    memo('a');
    memo('b');
    const third = memo('c');
    expect(memo('c')).not.toBe(third);
    expect(memo('c')).toEqual(third);
    expect(memo('a')).toBe(memo('a'));
    expect(compute).toHaveBeenCalledTimes(5);
  });
});
