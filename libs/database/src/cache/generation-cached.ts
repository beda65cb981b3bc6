import type { CacheGenerations } from './cache-generations';

/**
 * One value loaded under the generations of `names`: `get()` answers from memory while they are
 * current and loads again (once, shared by concurrent callers) when one of them moved.
 */
export class GenerationCached<T> {
  private held: { stamp: string; value: T } | undefined;
  private loading: { stamp: string; promise: Promise<T> } | undefined;

  constructor(
    private readonly generations: Pick<CacheGenerations, 'stamp' | 'stampNow' | 'peek'>,
    private readonly names: readonly string[],
    private readonly load: () => Promise<T>,
  ) {}

  async get(): Promise<T> {
    // The stamp is taken before the load starts: a change during the load makes the next get() reload.
    const now = this.generations.stampNow(this.names);
    const stamp = typeof now === 'string' ? now : await now;
    if (this.held?.stamp === stamp) return this.held.value;
    if (this.loading?.stamp === stamp) return this.loading.promise;
    const promise = this.load().then(
      (value) => {
        if (this.loading?.promise === promise) {
          this.loading = undefined;
          this.held = { stamp, value };
        }
        return value;
      },
      (error: unknown) => {
        if (this.loading?.promise === promise) this.loading = undefined;
        throw error;
      },
    );
    this.loading = { stamp, promise };
    return promise;
  }

  clear(): void {
    this.held = undefined;
    this.loading = undefined;
  }
}

export interface GenerationLruOptions<V> {
  /** Entries kept at most; the least recently used goes first. */
  capacity: number;
  /** Whether a loaded value is kept (e.g. not an unknown key); kept by default. */
  keep?: (value: V) => boolean;
}

/**
 * A bounded map (least recently used first out) of values loaded under the generations of `names`:
 * when one of them moves, every entry goes.
 */
export class GenerationLru<K, V> {
  private stamp: string | undefined;
  private readonly entries = new Map<K, V>();
  private readonly loading = new Map<K, { stamp: string; promise: Promise<V> }>();

  constructor(
    private readonly generations: Pick<CacheGenerations, 'stamp' | 'stampNow' | 'peek'>,
    private readonly names: readonly string[],
    private readonly options: GenerationLruOptions<V>,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /**
   * The value held for `key` while the generations are fresh and current, without a promise (the hot
   * path's answer from memory); undefined when it is not held or the generations must be read first
   * (then `get`).
   */
  peek(key: K): V | undefined {
    const stamp = this.generations.stampNow(this.names);
    if (typeof stamp !== 'string') {
      // The generations are being read: `get` waits for that reading and answers its failure (a database
      // that is down); this promise of it would otherwise reject unhandled.
      stamp.catch(() => undefined);
      return undefined;
    }
    if (this.adopt(stamp) !== this.stamp) return undefined;
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  async get(key: K, load: (key: K) => Promise<V>): Promise<V> {
    const current = this.current();
    const stamp = typeof current === 'string' ? current : await current;
    if (this.entries.has(key)) {
      const value = this.entries.get(key) as V;
      this.entries.delete(key);
      this.entries.set(key, value);
      return value;
    }
    const inFlight = this.loading.get(key);
    if (inFlight?.stamp === stamp) return inFlight.promise;
    const promise = load(key).then(
      (value) => {
        if (this.loading.get(key)?.promise === promise) {
          this.loading.delete(key);
          if (this.stamp === stamp && (this.options.keep?.(value) ?? true)) this.put(key, value);
        }
        return value;
      },
      (error: unknown) => {
        if (this.loading.get(key)?.promise === promise) this.loading.delete(key);
        throw error;
      },
    );
    this.loading.set(key, { stamp, promise });
    return promise;
  }

  /**
   * The values of many keys: those held, and the rest from one call of `loadMissing` (which answers
   * the keys it found; the others are left out of the result and not kept).
   */
  async getMany(keys: readonly K[], loadMissing: (keys: K[]) => Promise<Map<K, V>>): Promise<Map<K, V>> {
    const current = this.current();
    const stamp = typeof current === 'string' ? current : await current;
    const result = new Map<K, V>();
    const missing: K[] = [];
    for (const key of new Set(keys)) {
      if (this.entries.has(key)) result.set(key, this.entries.get(key) as V);
      else missing.push(key);
    }
    if (missing.length === 0) return result;
    const loaded = await loadMissing(missing);
    for (const [key, value] of loaded) {
      result.set(key, value);
      if (this.stamp === stamp && (this.options.keep?.(value) ?? true)) this.put(key, value);
    }
    return result;
  }

  clear(): void {
    this.entries.clear();
    this.loading.clear();
  }

  /** The stamp now, the map emptied first when it moved (without a promise while the generations are fresh). */
  private current(): string | Promise<string> {
    const stamp = this.generations.stampNow(this.names);
    // Read again on resuming: versions only grow, so no caller moves the map back to an older stamp.
    return typeof stamp === 'string'
      ? this.adopt(stamp)
      : stamp.then(() => this.adopt(this.generations.peek(this.names)));
  }

  private adopt(stamp: string): string {
    if (stamp !== this.stamp) {
      this.clear();
      this.stamp = stamp;
    }
    return stamp;
  }

  private put(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.options.capacity) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) break;
      this.entries.delete(oldest.value);
    }
  }
}
