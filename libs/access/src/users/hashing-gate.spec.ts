import { HashingBusy, HashingGate } from './hashing-gate';

/** A piece of work that ends when told to. */
function pending() {
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { work: () => done, finish };
}

describe('HashingGate', () => {
  it('runs at most `concurrency` at once, lets `maxWaiting` wait in order, and refuses the next', async () => {
    const gate = new HashingGate(2, 1);
    const started: number[] = [];
    const works = [pending(), pending(), pending()];
    const runs = works.map((work, index) =>
      gate.run(async () => {
        started.push(index);
        await work.work();
        return index;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    await expect(gate.run(async () => 'late')).rejects.toBeInstanceOf(HashingBusy);
    works[1].finish();
    expect(await runs[1]).toBe(1);
    expect(started).toEqual([0, 1, 2]);
    works[0].finish();
    works[2].finish();
    expect(await Promise.all(runs)).toEqual([0, 1, 2]);
    // Every slot is free again.
    expect(await Promise.all([gate.run(async () => 'a'), gate.run(async () => 'b')])).toEqual(['a', 'b']);
  });

  it('frees the slot of work that fails', async () => {
    const gate = new HashingGate(1, 0);
    await expect(gate.run(() => Promise.reject(new Error('scrypt failed')))).rejects.toThrow('scrypt failed');
    expect(await gate.run(async () => 'next')).toBe('next');
  });
});
