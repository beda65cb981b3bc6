/**
 * The records of a stored (method 0) ZIP written as a stream (PKWARE APPNOTE 6.3): a local header per
 * entry, its bytes, a data descriptor with the CRC-32 (known only once the bytes have passed), then the
 * central directory and its end. Sizes are known before the first byte, so the whole layout (offsets,
 * which entries need ZIP64, the total length) is computed up front.
 */

const LOCAL_HEADER = 30;
const CENTRAL_HEADER = 46;
const END = 22;
const ZIP64_END = 56;
const ZIP64_LOCATOR = 20;
/** The ZIP64 extra field in a local header: both sizes. */
const ZIP64_LOCAL_EXTRA = 20;
/** The ZIP64 extra field in a central header: both sizes and the local header's offset. */
const ZIP64_CENTRAL_EXTRA = 28;
const DESCRIPTOR = 16;
const ZIP64_DESCRIPTOR = 24;
/** A 32-bit field at this value means "see the ZIP64 record". */
const MAX32 = 0xffffffff;
/** Names in UTF-8 (bit 11); CRC and sizes in a data descriptor after the bytes (bit 3). */
const FLAGS = (1 << 11) | (1 << 3);
const VERSION = 20;
const VERSION_ZIP64 = 45;
/** Made on Unix (3), to APPNOTE 4.5: external attributes are a Unix mode. */
const MADE_BY = (3 << 8) | VERSION_ZIP64;
/** A regular file, rw-r--r--. */
const FILE_MODE = (0o100644 << 16) >>> 0;

/** One entry as laid out: its UTF-8 name, size, where its local header starts, and its CRC once known. */
export interface ZipEntry {
  name: Buffer;
  size: number;
  offset: number;
  zip64: boolean;
  time: number;
  date: number;
  crc: number;
}

/** Every entry's place, where the central directory starts, how long it is, and the archive's length. */
export interface ZipLayout {
  entries: ZipEntry[];
  directoryOffset: number;
  directorySize: number;
  /** Whether the end of the directory needs ZIP64 records (more than 65,534 entries, past 4 GiB). */
  zip64End: boolean;
  length: number;
}

/** DOS date and time (local time, 2-second steps, 1980 to 2107), as ZIP headers carry them. */
function dosDateTime(at: Date): { date: number; time: number } {
  const min = new Date(1980, 0, 1);
  const max = new Date(2107, 11, 31, 23, 59, 58);
  const when = at < min ? min : at > max ? max : at;
  return {
    date: when.getDate() | ((when.getMonth() + 1) << 5) | ((when.getFullYear() - 1980) << 9),
    time: Math.floor(when.getSeconds() / 2) | (when.getMinutes() << 5) | (when.getHours() << 11),
  };
}

/** The layout of `files` in this order: ZIP64 where a size or an offset needs it (or everywhere, forced). */
export function layOut(
  files: ReadonlyArray<{ name: string; size: number; modifiedAt: Date }>,
  forceZip64 = false,
): ZipLayout {
  let offset = 0;
  let directorySize = 0;
  const entries = files.map((file): ZipEntry => {
    const name = Buffer.from(file.name, 'utf8');
    const zip64 = forceZip64 || file.size >= MAX32 || offset >= MAX32;
    const entry = { name, size: file.size, offset, zip64, crc: 0, ...dosDateTime(file.modifiedAt) };
    offset += LOCAL_HEADER + name.length + (zip64 ? ZIP64_LOCAL_EXTRA : 0) + file.size;
    offset += zip64 ? ZIP64_DESCRIPTOR : DESCRIPTOR;
    directorySize += CENTRAL_HEADER + name.length + (zip64 ? ZIP64_CENTRAL_EXTRA : 0);
    return entry;
  });
  const zip64End = forceZip64 || needsZip64End(entries.length, offset, directorySize);
  const length = offset + directorySize + (zip64End ? ZIP64_END + ZIP64_LOCATOR : 0) + END;
  return { entries, directoryOffset: offset, directorySize, zip64End, length };
}

function needsZip64End(count: number, directoryOffset: number, directorySize: number): boolean {
  return count >= 0xffff || directoryOffset >= MAX32 || directorySize >= MAX32;
}

/** Writes the ZIP64 extended information extra field (0x0001) at `at`: `values` as 8-byte numbers. */
function zip64Extra(header: Buffer, at: number, values: number[]): void {
  header.writeUInt16LE(0x0001, at);
  header.writeUInt16LE(8 * values.length, at + 2);
  values.forEach((value, index) => header.writeBigUInt64LE(BigInt(value), at + 4 + 8 * index));
}

/** The local header: CRC and sizes are in the descriptor (ZIP64 entries also carry their sizes here). */
export function localHeader(entry: ZipEntry): Buffer {
  const extra = entry.zip64 ? ZIP64_LOCAL_EXTRA : 0;
  const header = Buffer.alloc(LOCAL_HEADER + entry.name.length + extra);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(entry.zip64 ? VERSION_ZIP64 : VERSION, 4);
  header.writeUInt16LE(FLAGS, 6);
  header.writeUInt16LE(0, 8); // stored
  header.writeUInt16LE(entry.time, 10);
  header.writeUInt16LE(entry.date, 12);
  // CRC-32 (14) and the sizes (18, 22) are 0 here: the descriptor has them, or ZIP64's extra field.
  if (entry.zip64) header.writeUInt32LE(MAX32, 18);
  if (entry.zip64) header.writeUInt32LE(MAX32, 22);
  header.writeUInt16LE(entry.name.length, 26);
  header.writeUInt16LE(extra, 28);
  entry.name.copy(header, LOCAL_HEADER);
  if (entry.zip64) zip64Extra(header, LOCAL_HEADER + entry.name.length, [entry.size, entry.size]);
  return header;
}

/** The data descriptor after an entry's bytes (with its signature; 8-byte sizes for ZIP64 entries). */
export function dataDescriptor(entry: ZipEntry): Buffer {
  const descriptor = Buffer.alloc(entry.zip64 ? ZIP64_DESCRIPTOR : DESCRIPTOR);
  descriptor.writeUInt32LE(0x08074b50, 0);
  descriptor.writeUInt32LE(entry.crc, 4);
  if (entry.zip64) {
    descriptor.writeBigUInt64LE(BigInt(entry.size), 8);
    descriptor.writeBigUInt64LE(BigInt(entry.size), 16);
  } else {
    descriptor.writeUInt32LE(entry.size, 8);
    descriptor.writeUInt32LE(entry.size, 12);
  }
  return descriptor;
}

function centralHeader(entry: ZipEntry): Buffer {
  const extra = entry.zip64 ? ZIP64_CENTRAL_EXTRA : 0;
  const header = Buffer.alloc(CENTRAL_HEADER + entry.name.length + extra);
  header.writeUInt32LE(0x02014b50, 0);
  header.writeUInt16LE(MADE_BY, 4);
  header.writeUInt16LE(entry.zip64 ? VERSION_ZIP64 : VERSION, 6);
  header.writeUInt16LE(FLAGS, 8);
  header.writeUInt16LE(0, 10); // stored
  header.writeUInt16LE(entry.time, 12);
  header.writeUInt16LE(entry.date, 14);
  header.writeUInt32LE(entry.crc, 16);
  header.writeUInt32LE(entry.zip64 ? MAX32 : entry.size, 20);
  header.writeUInt32LE(entry.zip64 ? MAX32 : entry.size, 24);
  header.writeUInt16LE(entry.name.length, 28);
  header.writeUInt16LE(extra, 30);
  // comment length, disk number, internal attributes (32-37): 0
  header.writeUInt32LE(FILE_MODE, 38);
  header.writeUInt32LE(entry.zip64 ? MAX32 : entry.offset, 42);
  entry.name.copy(header, CENTRAL_HEADER);
  if (entry.zip64) {
    zip64Extra(header, CENTRAL_HEADER + entry.name.length, [entry.size, entry.size, entry.offset]);
  }
  return header;
}

/** The central directory (every entry's CRC known by now) and its end records. */
export function centralDirectory(layout: ZipLayout): Buffer {
  const { entries, directoryOffset, directorySize, zip64End: zip64 } = layout;
  const end = Buffer.alloc((zip64 ? ZIP64_END + ZIP64_LOCATOR : 0) + END);
  let at = 0;
  if (zip64) {
    end.writeUInt32LE(0x06064b50, 0);
    end.writeBigUInt64LE(BigInt(ZIP64_END - 12), 4);
    end.writeUInt16LE(MADE_BY, 12);
    end.writeUInt16LE(VERSION_ZIP64, 14);
    // this disk, the directory's disk (16, 20): 0
    end.writeBigUInt64LE(BigInt(entries.length), 24);
    end.writeBigUInt64LE(BigInt(entries.length), 32);
    end.writeBigUInt64LE(BigInt(directorySize), 40);
    end.writeBigUInt64LE(BigInt(directoryOffset), 48);
    end.writeUInt32LE(0x07064b50, ZIP64_END);
    end.writeBigUInt64LE(BigInt(directoryOffset + directorySize), ZIP64_END + 8);
    end.writeUInt32LE(1, ZIP64_END + 16);
    at = ZIP64_END + ZIP64_LOCATOR;
  }
  end.writeUInt32LE(0x06054b50, at);
  end.writeUInt16LE(zip64 ? 0xffff : entries.length, at + 8);
  end.writeUInt16LE(zip64 ? 0xffff : entries.length, at + 10);
  end.writeUInt32LE(zip64 ? MAX32 : directorySize, at + 12);
  end.writeUInt32LE(zip64 ? MAX32 : directoryOffset, at + 16);
  return Buffer.concat([...entries.map(centralHeader), end]);
}
