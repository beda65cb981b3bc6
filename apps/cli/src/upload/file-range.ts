import type { ClientRequest } from 'node:http';
import type { FileHandle } from 'node:fs/promises';

/**
 * A request body read from an open file as the request is written, a piece at a time into one small
 * buffer: the client never holds a chunk (8 MiB by default, up to --chunk-size 1G) or a whole file in
 * memory, so its memory does not grow with either (bench/results/import.md). Each attempt of a request
 * reads the range again.
 */
export interface FileRange {
  handle: FileHandle;
  /** Where the body starts in the file. */
  start: number;
  length: number;
}

/** The piece read and written at a time. */
export const PIECE_BYTES = 256 * 1024;

/** The file changed (it is shorter than when it was hashed): no retry sends what it was. */
export class FileShrank extends Error {}

/**
 * Writes `range` into `request` piece by piece: the next piece is read into the same buffer once the
 * socket has taken the previous one (the write's callback), so a slow server holds back the reads.
 */
export async function writeRange(request: ClientRequest, range: FileRange): Promise<void> {
  const piece = Buffer.allocUnsafe(Math.max(1, Math.min(PIECE_BYTES, range.length)));
  for (let offset = 0; offset < range.length;) {
    const wanted = Math.min(piece.length, range.length - offset);
    const { bytesRead } = await range.handle.read(piece, 0, wanted, range.start + offset);
    if (bytesRead === 0) throw new FileShrank('the file is shorter than when it was hashed');
    await new Promise<void>((resolve, reject) =>
      request.write(piece.subarray(0, bytesRead), (error) => (error ? reject(error) : resolve())),
    );
    offset += bytesRead;
  }
}
