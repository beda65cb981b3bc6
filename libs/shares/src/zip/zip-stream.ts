import type { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import { uniqueEntryNames } from './zip-names';

/** One file of a streamed ZIP: its name as offered, its exact size, and how to read its bytes. */
export interface ZipSource {
  filename: string;
  size: number;
  modifiedAt?: Date;
  open(): Promise<Readable>;
}

/** A streamed ZIP and its exact length (the Content-Length). */
export interface ZipOutput {
  stream: Readable;
  length: number;
}

/**
 * One ZIP of `sources`, streamed: each file is opened only when the archive reaches it and piped through
 * (stored, not deflated: photos and videos do not shrink, and the length is known before the first byte),
 * so memory stays flat whatever the total. Names are made safe and unique (zip-names.ts); yazl writes
 * ZIP64 records where a size or offset needs them (over 4 GiB). A source that fails to open or read
 * fails the stream (the response is cut short, never completed with wrong bytes).
 */
export function zipStream(sources: readonly ZipSource[]): Promise<ZipOutput> {
  const zip = new ZipFile();
  const opened = new Set<Readable>();
  let closed = false;
  const names = uniqueEntryNames(sources.map((source) => source.filename));
  sources.forEach((source, index) => {
    zip.addReadStreamLazy(
      names[index],
      { size: source.size, compress: false, mtime: source.modifiedAt ?? new Date() },
      (callback) => {
        source.open().then(
          (file) => {
            // The archive was let go before this file's turn (HEAD, a client gone): so is the file.
            if (closed) file.destroy();
            opened.add(file);
            file.once('close', () => opened.delete(file));
            // A store that fails mid-file fails the archive (cut short), never the process.
            file.on('error', (error: Error) => archive.destroy(error));
            callback(null, file);
          },
          (error: Error) => callback(error, undefined as unknown as Readable),
        );
      },
    );
  });
  const archive = zip.outputStream as Readable;
  zip.on('error', (error: Error) => archive.destroy(error));
  // A client gone mid-archive: the object being read is let go too (an S3 connection, a file handle).
  archive.once('close', () => {
    closed = true;
    for (const source of opened) source.destroy();
  });
  return new Promise((resolve) => {
    const lengthKnown = (length: number) => resolve({ stream: archive, length });
    zip.end(undefined, lengthKnown as unknown as () => void);
  });
}
