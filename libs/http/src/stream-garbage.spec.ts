import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { STREAMED_BYTES_PER_COLLECTION, StreamGarbage } from './stream-garbage';

const CHUNK = 64 * 1024;
const MiB = 1024 * 1024;

/**
 * Streams `total` bytes as fresh 64 KiB buffers (what a socket hands an upload), each dropped after use,
 * and returns the most memory ever held by ArrayBuffers while it went on.
 */
async function peakArrayBuffers(total: number, note: (chunk: Buffer) => void): Promise<number> {
  let peak = 0;
  for (let sent = 0; sent < total; sent += CHUNK) {
    note(Buffer.allocUnsafeSlow(CHUNK).fill(1));
    if (sent % (1 * MiB) === 0) {
      peak = Math.max(peak, process.memoryUsage().arrayBuffers);
      await nextTurn();
    }
  }
  return peak;
}

describe('StreamGarbage', () => {
  it('keeps the dead buffers of a long stream to a few collection periods, whatever its length', async () => {
    const base = process.memoryUsage().arrayBuffers;
    const peak = await peakArrayBuffers(256 * MiB, (chunk) => StreamGarbage.streamed(chunk.length));
    // Without the collections, V8 lets 40-60 MB of such buffers pile up before it collects them.
    expect(peak - base).toBeLessThan(3 * STREAMED_BYTES_PER_COLLECTION);
  });

  it('counts what a watched readable emits without changing what its consumer gets', async () => {
    const chunks = Array.from({ length: 300 }, (_, index) => Buffer.alloc(CHUNK, index % 256));
    const source = Readable.from(chunks, { objectMode: false });
    StreamGarbage.watch(source);
    const received: Buffer[] = [];
    for await (const chunk of source) received.push(chunk as Buffer);
    expect(Buffer.concat(received).equals(Buffer.concat(chunks))).toBe(true);
  });
});
