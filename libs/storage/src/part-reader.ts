import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';

/** Idle part buffers kept for reuse, so steady uploading does not churn large allocations. */
class BufferPool {
  private readonly idle: Buffer[] = [];

  constructor(
    readonly size: number,
    private readonly maxIdle: number,
  ) {}

  acquire(): Buffer {
    return this.idle.pop() ?? Buffer.allocUnsafe(this.size);
  }

  release(buffer: Buffer): void {
    if (this.idle.length < this.maxIdle) this.idle.push(buffer);
  }
}

const pools = new Map<number, BufferPool>();

function poolFor(partSize: number): BufferPool {
  let pool = pools.get(partSize);
  if (pool === undefined) {
    pool = new BufferPool(partSize, 4);
    pools.set(partSize, pool);
  }
  return pool;
}

/**
 * Cuts a stream into parts of `partSize` bytes (the last one shorter), hashing and counting as it reads.
 * Two buffers alternate: a part returned by `read()` stays intact until the second `read()` after it, so
 * one part can upload while the next is read, and memory stays at two parts whatever the stream size.
 * Call `release()` once nothing uses the parts any more.
 */
export class PartReader {
  size = 0;
  private readonly hash = createHash('sha256');
  private readonly pool: BufferPool;
  private readonly buffers: Buffer[];
  private readonly chunks: AsyncIterator<unknown>;
  private leftover: Buffer = Buffer.alloc(0);
  private turn = 0;
  private partsRead = 0;
  private ended = false;

  constructor(
    source: Readable,
    readonly partSize: number,
  ) {
    this.pool = poolFor(partSize);
    this.buffers = [this.pool.acquire(), this.pool.acquire()];
    this.chunks = source[Symbol.asyncIterator]();
  }

  /** The next part, or undefined after the last; an empty stream gives one empty part. */
  async read(): Promise<Buffer | undefined> {
    const target = this.buffers[this.turn];
    let filled = 0;
    while (filled < this.partSize) {
      if (this.leftover.length === 0) {
        if (this.ended) break;
        const next = await this.chunks.next();
        if (next.done === true) {
          this.ended = true;
          break;
        }
        this.leftover = toBuffer(next.value);
        this.hash.update(this.leftover);
        this.size += this.leftover.length;
      }
      const copied = this.leftover.copy(
        target,
        filled,
        0,
        Math.min(this.leftover.length, this.partSize - filled),
      );
      filled += copied;
      this.leftover = this.leftover.subarray(copied);
    }
    if (filled === 0 && this.partsRead > 0) return undefined;
    this.partsRead += 1;
    this.turn = 1 - this.turn;
    return target.subarray(0, filled);
  }

  /** Hex SHA-256 of the whole stream; valid once `read()` returned undefined or a short part. */
  sha256(): string {
    return this.hash.digest('hex');
  }

  release(): void {
    for (const buffer of this.buffers) this.pool.release(buffer);
    this.buffers.length = 0;
  }
}

function toBuffer(chunk: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (typeof chunk === 'string') return Buffer.from(chunk);
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  throw new TypeError('object streams cannot be stored; expected bytes');
}
