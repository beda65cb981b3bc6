import { failureWindowMs, MAX_ATTEMPTS, retryDelayMs } from './retry-schedule';

describe('webhook retry schedule', () => {
  it.each([
    [1, 21_000],
    [2, 42_000],
    [3, 84_000],
    [12, 21_000 * 2048],
  ])('after %i failed attempt(s) waits %i ms (default base 21 s)', (attempts, delay) => {
    expect(retryDelayMs(attempts, 21)).toBe(delay);
  });

  it('gives up after the last attempt', () => {
    expect(retryDelayMs(MAX_ATTEMPTS, 21)).toBeUndefined();
    expect(retryDelayMs(MAX_ATTEMPTS - 1, 21)).toBeDefined();
  });

  it('spreads the retries over about a day by default, the failure window', () => {
    let total = 0;
    for (let attempts = 1; retryDelayMs(attempts, 21) !== undefined; attempts++)
      total += retryDelayMs(attempts, 21) ?? 0;
    expect(total).toBe(failureWindowMs(21));
    expect(total / 3_600_000).toBeGreaterThan(23);
    expect(total / 3_600_000).toBeLessThan(25);
  });
});
