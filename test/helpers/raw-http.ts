import { createCipheriv, createHash } from 'node:crypto';
import * as http from 'node:http';
import { Readable } from 'node:stream';

export interface StreamedReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  size: number;
  sha256: string;
  /** The body as text when it is small (error messages), else ''. */
  text: string;
}

/**
 * One request over plain node:http whose body streams from `body` and whose answer is hashed as it
 * arrives, so tests can move hundreds of MB without holding them in memory.
 */
export function streamRequest(
  method: string,
  url: string,
  options: { token?: string; body?: Readable; headers?: Record<string, string> } = {},
): Promise<StreamedReply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    const request = http.request(url, { method, headers }, (response) => {
      const hash = createHash('sha256');
      const head: Buffer[] = [];
      let size = 0;
      response.on('data', (data: Buffer) => {
        hash.update(data);
        if (size < 4096) head.push(data);
        size += data.length;
      });
      response.on('error', reject);
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          size,
          sha256: hash.digest('hex'),
          text: size <= 4096 ? Buffer.concat(head).toString('utf8') : '',
        }),
      );
    });
    request.on('error', reject);
    if (options.body === undefined) request.end();
    else options.body.pipe(request);
  });
}

const BLOCK = 1024 * 1024;

/**
 * Deterministic pseudo-random bytes (an AES-CTR keystream keyed by `seed` and `part`), generated block by
 * block: the same arguments always give the same bytes, so expected hashes can be recomputed instead of kept.
 */
export function* pseudoRandomBlocks(seed: string, part: number, size: number): Generator<Buffer> {
  const key = createHash('sha256').update(seed).digest().subarray(0, 16);
  const iv = createHash('sha256').update(`${seed}:${part}`).digest().subarray(0, 16);
  const cipher = createCipheriv('aes-128-ctr', key, iv);
  const zeros = Buffer.alloc(BLOCK);
  for (let sent = 0; sent < size; sent += BLOCK) {
    yield cipher.update(zeros.subarray(0, Math.min(BLOCK, size - sent)));
  }
}

export function pseudoRandomStream(seed: string, part: number, size: number): Readable {
  return Readable.from(pseudoRandomBlocks(seed, part, size), { objectMode: false });
}
