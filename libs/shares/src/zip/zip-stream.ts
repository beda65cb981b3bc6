import { PassThrough, Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { centralDirectory, dataDescriptor, layOut, localHeader, ZipEntry } from './zip-records';
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
 * so memory stays flat whatever the total. Names are made safe and unique (zip-names.ts); the records
 * (zip-records.ts) are ZIP64 where a size or offset needs them (over 4 GiB); each entry's CRC-32 is
 * computed as its bytes pass, by zlib, and written in a data descriptor after them. A source that fails
 * to open or read, or gives another number of bytes than its size, fails the stream (the response is cut
 * short, never completed with wrong bytes). `forceZip64` writes ZIP64 records at any size.
 */
export function zipStream(sources: readonly ZipSource[], forceZip64 = false): Promise<ZipOutput> {
  const names = uniqueEntryNames(sources.map((source) => source.filename));
  const layout = layOut(
    sources.map((source, index) => ({
      name: names[index],
      size: source.size,
      modifiedAt: source.modifiedAt ?? new Date(),
    })),
    forceZip64,
  );
  const archive = new PassThrough();
  const write = async () => {
    for (const [index, entry] of layout.entries.entries()) {
      if (archive.destroyed) return;
      archive.write(localHeader(entry));
      await copyEntry(sources[index], entry, archive);
      archive.write(dataDescriptor(entry));
    }
    if (!archive.destroyed) archive.end(centralDirectory(layout));
  };
  // A client gone (or HEAD: the archive let go unread) stops the writing, and the file being read.
  write().catch((error: Error) => archive.destroy(error));
  return Promise.resolve({ stream: archive, length: layout.length });
}

async function copyEntry(source: ZipSource, entry: ZipEntry, archive: PassThrough): Promise<void> {
  const file = await source.open();
  const { crc, bytes } = await new Promise<{ crc: number; bytes: number }>((resolve, reject) => {
    let crc = 0;
    let bytes = 0;
    const onData = (chunk: Buffer) => {
      crc = crc32(chunk, crc);
      bytes += chunk.length;
      if (!archive.write(chunk)) file.pause();
    };
    const onDrain = () => file.resume();
    const done = (error?: Error) => {
      file.off('data', onData).off('end', done).off('error', done).off('close', onCut);
      archive.off('drain', onDrain).off('close', onClose);
      if (error === undefined) return resolve({ crc, bytes });
      file.destroy();
      reject(error);
    };
    // The archive let go (a client gone, HEAD) while this file is opened or read: so is the file.
    const onClose = () => done(new Error('the archive was closed'));
    const onCut = () => done(new Error(`${source.filename}: closed before its end`));
    if (archive.destroyed) return onClose();
    file.on('data', onData).once('end', done).once('error', done).once('close', onCut);
    archive.on('drain', onDrain).once('close', onClose);
  });
  if (bytes !== entry.size) {
    throw new Error(`${source.filename}: ${bytes} bytes where ${entry.size} were expected`);
  }
  entry.crc = crc;
}
