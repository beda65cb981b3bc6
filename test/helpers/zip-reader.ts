import { crc32 } from 'node:zlib';

/** One entry of a ZIP as read back: its name, the bytes, and whether its records used ZIP64. */
export interface ZipEntryRead {
  name: string;
  data: Buffer;
  zip64: boolean;
}

const EOCD = 0x06054b50;
const ZIP64_EOCD = 0x06064b50;
const ZIP64_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/**
 * A small reader of stored (method 0) ZIPs, for the specs: the central directory (ZIP64 end record and
 * extra fields included), then each entry's bytes through its local header, checked against the
 * directory's CRC-32. Throws on anything else.
 */
export function readZip(zip: Buffer): ZipEntryRead[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0 || zip.readUInt32LE(end) !== EOCD) throw new Error('no end of central directory');
  let count = zip.readUInt16LE(end + 10);
  let directoryOffset = zip.readUInt32LE(end + 16);
  if (count === 0xffff || directoryOffset === 0xffffffff) {
    const locator = end - 20;
    if (zip.readUInt32LE(locator) !== ZIP64_LOCATOR) throw new Error('no ZIP64 locator');
    const record = Number(zip.readBigUInt64LE(locator + 8));
    if (zip.readUInt32LE(record) !== ZIP64_EOCD) throw new Error('no ZIP64 end record');
    count = Number(zip.readBigUInt64LE(record + 32));
    directoryOffset = Number(zip.readBigUInt64LE(record + 48));
  }
  const entries: ZipEntryRead[] = [];
  let at = directoryOffset;
  for (let index = 0; index < count; index++) {
    if (zip.readUInt32LE(at) !== CENTRAL) throw new Error(`entry ${index}: no central header`);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const compressed = zip.readUInt32LE(at + 20);
    let size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    let localOffset = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const extra = zip.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength);
    let zip64 = false;
    for (let field = 0; field + 4 <= extra.length;) {
      const id = extra.readUInt16LE(field);
      const length = extra.readUInt16LE(field + 2);
      if (id === 0x0001) {
        zip64 = true;
        let value = field + 4;
        if (size === 0xffffffff) {
          size = Number(extra.readBigUInt64LE(value));
          value += 8;
        }
        if (compressed === 0xffffffff) value += 8; // the compressed size: the same when stored
        if (localOffset === 0xffffffff) localOffset = Number(extra.readBigUInt64LE(value));
      }
      field += 4 + length;
    }
    if (method !== 0) throw new Error(`${name}: method ${method}, not stored`);
    if (zip.readUInt32LE(localOffset) !== LOCAL) throw new Error(`${name}: no local header`);
    const dataStart =
      localOffset + 30 + zip.readUInt16LE(localOffset + 26) + zip.readUInt16LE(localOffset + 28);
    const data = zip.subarray(dataStart, dataStart + size);
    if (crc32(data) !== crc) throw new Error(`${name}: CRC-32 ${crc32(data)}, the directory says ${crc}`);
    entries.push({ name, data, zip64 });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
