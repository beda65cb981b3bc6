import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Bytes streamed (by all streams of the process together) between two minor collections. 4-16 MiB gave
 * the same peak within a few MB on a 1 GiB upload; 8 MiB is a collection every ~25 ms at 330 MB/s.
 */
export const STREAMED_BYTES_PER_COLLECTION = 8 * 1024 * 1024;

/** V8's `gc` (the `--expose-gc` function) with the options it takes. */
export type Collect = (options: {
  type: 'minor' | 'major';
  execution?: 'sync' | 'async';
  /** `last-resort`: collect until nothing more is freed, and shrink the heap's spaces to what is live. */
  flavor?: 'regular' | 'last-resort';
}) => void;

/**
 * Frees the memory of the Buffers a big stream leaves behind as it goes, instead of when V8 gets to it.
 *
 * Each socket read of an upload (and each file read of a download) is a fresh 64 KiB Buffer whose bytes
 * live outside the JavaScript heap. They are freed only when a garbage collection finds the Buffer dead,
 * and V8 starts collections by the growth of its heap, on which a Buffer weighs a few dozen bytes: during
 * a 1 GiB upload up to 60 MB of dead buffers piled up before a collection came (peak RSS 208 MB; the
 * young generation itself stayed at 4 MB). Counting the streamed bytes and running a minor collection (a
 * scavenge of the young generation, where those Buffers are; well under a millisecond at this size)
 * every STREAMED_BYTES_PER_COLLECTION bytes keeps the peak at 150 MB for 256 MiB and 1 GiB alike, and
 * the upload got faster too (1 GiB by content PUT: 2.9-3.3 s → 2.0-2.3 s), since the allocator hands out
 * the freed pages again instead of faulting in new ones. bench/results/latest.md has the figures.
 *
 * V8's `gc` function is reached without `--expose-gc` on the command line: the flag is set at run time
 * and the function taken from a fresh context, which gets it (the main context was made before the flag).
 * Where that fails, counting does nothing.
 */
export class StreamGarbage {
  private static collect: Collect | null | undefined;
  private static pending = 0;
  /** Bytes streamed since the process started (HeapRelease: whether a stream went on lately). */
  static total = 0;

  /** Notes `bytes` streamed; collects when enough went by since the last time. */
  static streamed(bytes: number): void {
    StreamGarbage.total += bytes;
    StreamGarbage.pending += bytes;
    if (StreamGarbage.pending < STREAMED_BYTES_PER_COLLECTION) return;
    StreamGarbage.pending = 0;
    StreamGarbage.collector()?.({ type: 'minor' });
  }

  /** Counts what `source` emits, without pausing or resuming it: attach in the tick its consumer does. */
  static watch<T extends NodeJS.EventEmitter>(source: T): T {
    source.on('data', (chunk: { length: number }) => StreamGarbage.streamed(chunk.length));
    return source;
  }

  /** V8's `gc` function, or null where it cannot be had. */
  static collector(): Collect | null {
    if (StreamGarbage.collect !== undefined) return StreamGarbage.collect;
    const exposed = (globalThis as { gc?: unknown }).gc;
    if (typeof exposed === 'function') return (StreamGarbage.collect = exposed as Collect);
    try {
      setFlagsFromString('--expose-gc');
      const collect = runInNewContext('gc') as unknown;
      StreamGarbage.collect = typeof collect === 'function' ? (collect as Collect) : null;
    } catch {
      StreamGarbage.collect = null;
    }
    return StreamGarbage.collect;
  }
}
