import { Readable } from 'node:stream';

/**
 * `source` as a stream that fails with `tooLarge()` once more than `maxBytes` came, and with
 * `interrupted()` when the source fails (a client that hung up). The source is never destroyed here:
 * whenever reading stops early, the rest of it is read and discarded, so an HTTP request can still be
 * answered (413) on its connection.
 */
export function limitBytes(
  source: Readable,
  maxBytes: number,
  errors: { tooLarge: () => Error; interrupted: () => Error },
): Readable {
  async function* limited(): AsyncGenerator<Buffer> {
    let seen = 0;
    let tooLarge = false;
    try {
      for await (const data of source.iterator({ destroyOnReturn: false })) {
        const chunk = data as Buffer;
        seen += chunk.length;
        tooLarge = seen > maxBytes;
        if (tooLarge) break;
        yield chunk;
      }
    } catch {
      throw errors.interrupted();
    } finally {
      if (!source.readableEnded && !source.destroyed) source.resume();
    }
    if (tooLarge) throw errors.tooLarge();
  }
  return Readable.from(limited(), { objectMode: false });
}
