/**
 * Remembers what `compute` made of a header's text, for the `limit` texts seen first: clients send the
 * same few `Accept` and `Accept-Language` values over and over, and parsing them allocated some 3 KB of a
 * GET's 72 (bench/results/read-allocation.md). Past the limit (a client varying its headers on purpose),
 * new texts are computed each time and not kept, so the memory stays bounded. What is kept is shared by
 * every request that sends the same text: `compute` must answer a value nobody changes (frozen).
 */
export function memoByHeader<T>(
  limit: number,
  compute: (text: string | undefined) => T,
): (text: string | undefined) => T {
  const known = new Map<string, T>();
  let absent: { value: T } | undefined;
  return (text) => {
    if (text === undefined) return (absent ??= { value: compute(undefined) }).value;
    let value = known.get(text);
    if (value === undefined) {
      value = compute(text);
      if (known.size < limit && text.length <= 200) known.set(text, value);
    }
    return value;
  };
}
