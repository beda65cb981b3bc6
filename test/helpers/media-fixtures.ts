import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { constants, crc32, deflateRawSync, deflateSync } from 'node:zlib';

/**
 * A PDF written from its objects (bodies without `N 0 obj`), with a correct cross-reference table: object
 * 1 is the catalog. Small hand-made documents for the preview specs, no PDF library needed.
 */
export function pdfOf(objects: Array<string | Buffer>): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = parts[0].length;
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(offset);
    const part = Buffer.concat([
      Buffer.from(`${index + 1} 0 obj\n`),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
      Buffer.from('\nendobj\n'),
    ]);
    parts.push(part);
    offset += part.length;
  });
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((at) => `${String(at).padStart(10, '0')} 00000 n `),
    'trailer',
    `<< /Size ${objects.length + 1} /Root 1 0 R >>`,
    'startxref',
    String(offset),
    '%%EOF',
    '',
  ].join('\n');
  return Buffer.concat([...parts, Buffer.from(xref, 'latin1')]);
}

/** A stream object's body: its dictionary entries and its (already encoded) data. */
export function pdfStream(entries: string, data: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`<< ${entries} /Length ${data.length} >>\nstream\n`, 'latin1'),
    data,
    Buffer.from('\nendstream', 'latin1'),
  ]);
}

/**
 * A one-page PDF of `width`×`height` points whose page is a filled rectangle and a line of text;
 * `pageCount` sets the /Count the page tree claims, `catalogExtra` adds to the catalog (an /OpenAction).
 */
export function simplePdf(
  options: { width?: number; height?: number; pageCount?: number; catalogExtra?: string } = {},
): Buffer {
  const { width = 612, height = 792, pageCount = 1, catalogExtra = '' } = options;
  const content = Buffer.from(
    `0.2 0.4 0.8 rg 40 40 ${width - 80} ${height - 80} re f 0 g BT /F1 36 Tf 60 ${height / 2} Td (Brochure) Tj ET`,
  );
  return pdfOf([
    `<< /Type /Catalog /Pages 2 0 R ${catalogExtra} >>`,
    `<< /Type /Pages /Kids [3 0 R] /Count ${pageCount} >>`,
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>`,
    pdfStream('', content),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]);
}

/** The ffmpeg shipped in @ffmpeg-installer/ffmpeg (no apt package needed). */
export function shippedFfmpeg(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
}

/**
 * A short test video made by the shipped ffmpeg: a test pattern with a tone, H.264/AAC in MP4 with its
 * `moov` at the end (as cameras write it), `seconds` long at `width`×`height`.
 */
export function testVideo(options: { seconds?: number; width?: number; height?: number } = {}): Buffer {
  const { seconds = 2, width = 320, height = 240 } = options;
  const folder = mkdtempSync(path.join(tmpdir(), 'dam-video-'));
  try {
    const output = path.join(folder, 'clip.mp4');
    const result = spawnSync(
      shippedFfmpeg(),
      [
        ...['-hide_banner', '-loglevel', 'error', '-y'],
        ...['-f', 'lavfi', '-i', `testsrc=duration=${seconds}:size=${width}x${height}:rate=15`],
        ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`],
        ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest'],
        output,
      ],
      { encoding: 'utf8' },
    );
    if (result.status !== 0) throw new Error(`ffmpeg could not make the test video: ${result.stderr}`);
    return readFileSync(output);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * A zlib stream (RFC 1950) that inflates to `megabytes` MiB of zeros, made in milliseconds instead of the
 * seconds a compressor takes over them: one MiB deflated from an empty window and fully flushed (a raw
 * stream that names nothing before its own start, so it may follow itself) is repeated, then come the
 * final empty block and the Adler-32 of n zeros (a = 1, b = n mod 65521).
 */
export function deflatedZeros(megabytes: number): Buffer {
  const piece = deflateRawSync(Buffer.alloc(2 ** 20), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE((((megabytes * 2 ** 20) % 65521) * 65536 + 1) >>> 0);
  return Buffer.concat([
    Buffer.from([0x78, 0xda]),
    ...Array.from({ length: megabytes }, () => piece),
    deflateRawSync(Buffer.alloc(0)),
    adler,
  ]);
}

/**
 * A PNG of `width`×`height` white pixels (one bit each, grey): a decompression bomb of a few hundred KB
 * whose header alone tells its size.
 */
export function whitePng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const framing = Buffer.alloc(8);
    framing.writeUInt32BE(data.length, 0);
    framing.writeUInt32BE(crc32(body), 4);
    return Buffer.concat([framing.subarray(0, 4), body, framing.subarray(4)]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([1, 0, 0, 0, 0], 8); // bit depth 1, grey, deflate, no filter method beyond 0, no interlace
  const stride = 1 + Math.ceil(width / 8);
  const rows = Buffer.alloc(stride * height, 0xff);
  for (let row = 0; row < height; row++) rows[row * stride] = 0; // each row's filter: none
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 1 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
