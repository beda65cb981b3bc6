import { CacheGenerations } from './cache-generations';
import { GenerationCached, GenerationLru } from './generation-cached';

/** Generations held in memory: `move(name)` is what a bump (here or seen from another instance) does. */
function fakeGenerations() {
  const versions = new Map<string, number>();
  const peek = (names: readonly string[]) => names.map((name) => versions.get(name) ?? 0).join('.');
  return {
    generations: {
      stamp: async (names: readonly string[]) => peek(names),
      stampNow: (names: readonly string[]) => peek(names),
      peek,
    } as Pick<CacheGenerations, 'stamp' | 'stampNow' | 'peek'>,
    move: (name: string) => versions.set(name, (versions.get(name) ?? 0) + 1),
  };
}

describe('GenerationCached', () => {
  it('loads once while the generation stands, and again after it moved', async () => {
    const { generations, move } = fakeGenerations();
    let loads = 0;
    const cached = new GenerationCached(generations, ['a'], async () => ++loads);
    expect(await cached.get()).toBe(1);
    expect(await cached.get()).toBe(1);
    move('a');
    expect(await cached.get()).toBe(2);
    move('b');
    expect(await cached.get()).toBe(2);
  });

  it('shares one load among concurrent callers', async () => {
    const { generations } = fakeGenerations();
    const load = jest.fn(async () => 'value');
    const cached = new GenerationCached(generations, ['a'], load);
    await Promise.all([cached.get(), cached.get(), cached.get()]);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('does not keep a value whose load saw the generation move meanwhile', async () => {
    const { generations, move } = fakeGenerations();
    let loads = 0;
    const cached = new GenerationCached(generations, ['a'], async () => {
      loads += 1;
      if (loads === 1) move('a');
      return loads;
    });
    expect(await cached.get()).toBe(1);
    expect(await cached.get()).toBe(2);
  });

  it('does not keep a failed load', async () => {
    const { generations } = fakeGenerations();
    let fail = true;
    const cached = new GenerationCached(generations, ['a'], async () => {
      if (fail) throw new Error('down');
      return 'up';
    });
    await expect(cached.get()).rejects.toThrow('down');
    fail = false;
    await expect(cached.get()).resolves.toBe('up');
  });
});

describe('GenerationLru', () => {
  it('drops the least recently used entry beyond its capacity', async () => {
    const { generations } = fakeGenerations();
    const lru = new GenerationLru<number, string>(generations, ['a'], { capacity: 2 });
    const load = jest.fn(async (key: number) => `v${key}`);
    await lru.get(1, load);
    await lru.get(2, load);
    await lru.get(1, load); // 1 is now the most recent
    await lru.get(3, load); // evicts 2
    expect(lru.size).toBe(2);
    await lru.get(1, load);
    await lru.get(2, load);
    expect(load.mock.calls.map(([key]) => key)).toEqual([1, 2, 3, 2]);
  });

  it('empties when one of its generations moves', async () => {
    const { generations, move } = fakeGenerations();
    const lru = new GenerationLru<string, number>(generations, ['a', 'b'], { capacity: 10 });
    let loads = 0;
    const load = async () => ++loads;
    expect(await lru.get('k', load)).toBe(1);
    expect(await lru.get('k', load)).toBe(1);
    move('b');
    expect(await lru.get('k', load)).toBe(2);
  });

  it('does not keep values refused by `keep`', async () => {
    const { generations } = fakeGenerations();
    const lru = new GenerationLru<string, string | null>(generations, ['a'], {
      capacity: 10,
      keep: (value) => value !== null,
    });
    const load = jest.fn(async () => null);
    await lru.get('unknown', load);
    await lru.get('unknown', load);
    expect(load).toHaveBeenCalledTimes(2);
    expect(lru.size).toBe(0);
  });

  it('peek answers a held value without a promise, and nothing once its generation moved or while stale', async () => {
    const { generations, move } = fakeGenerations();
    const lru = new GenerationLru<string, number>(generations, ['a'], { capacity: 10 });
    expect(lru.peek('x')).toBeUndefined();
    await lru.get('x', async () => 1);
    expect(lru.peek('x')).toBe(1);
    move('a');
    expect(lru.peek('x')).toBeUndefined();
    expect(lru.size).toBe(0);
    await lru.get('x', async () => 2);
    const stale = {
      ...generations,
      stampNow: (names: readonly string[]) => Promise.resolve(generations.peek(names)),
    };
    expect(new GenerationLru<string, number>(stale, ['a'], { capacity: 10 }).peek('x')).toBeUndefined();
    expect(lru.peek('x')).toBe(2);
  });

  it('peek leaves no unhandled rejection when the generations cannot be read (get answers the failure)', async () => {
    const { generations } = fakeGenerations();
    const failing = { ...generations, stampNow: () => Promise.reject(new Error('database down')) };
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const lru = new GenerationLru<string, number>(failing, ['a'], { capacity: 10 });
      expect(lru.peek('x')).toBeUndefined();
      await expect(lru.get('x', async () => 1)).rejects.toThrow('database down');
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('peek counts as a use for the least recently used order', async () => {
    const { generations } = fakeGenerations();
    const lru = new GenerationLru<number, string>(generations, ['a'], { capacity: 2 });
    await lru.get(1, async () => 'one');
    await lru.get(2, async () => 'two');
    expect(lru.peek(1)).toBe('one');
    await lru.get(3, async () => 'three');
    expect(lru.peek(1)).toBe('one');
    expect(lru.peek(2)).toBeUndefined();
  });

  it('getMany loads only the missing keys, in one call', async () => {
    const { generations } = fakeGenerations();
    const lru = new GenerationLru<number, string>(generations, ['a'], { capacity: 10 });
    const loadMissing = jest.fn(
      async (keys: number[]) => new Map(keys.filter((k) => k !== 9).map((k) => [k, `u${k}`])),
    );
    expect(await lru.getMany([1, 2], loadMissing)).toEqual(
      new Map([
        [1, 'u1'],
        [2, 'u2'],
      ]),
    );
    expect(await lru.getMany([2, 3, 9, 3], loadMissing)).toEqual(
      new Map([
        [2, 'u2'],
        [3, 'u3'],
      ]),
    );
    expect(loadMissing.mock.calls).toEqual([[[1, 2]], [[3, 9]]]);
  });
});
