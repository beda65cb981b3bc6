import { Transform } from 'node:stream';

/** How many leading bytes of an upload are kept to recognise its format. */
export const SNIFF_BYTES = 64;

const BY_EXTENSION: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  bmp: 'image/bmp',
  avif: 'image/avif',
  heic: 'image/heic',
  svg: 'image/svg+xml',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  avi: 'video/x-msvideo',
  mkv: 'video/x-matroska',
  webm: 'video/webm',
  mpg: 'video/mpeg',
  mpeg: 'video/mpeg',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  pdf: 'application/pdf',
  zip: 'application/zip',
  txt: 'text/plain',
};

/** Signatures at offset 0 (or at `at`), checked before the file name. */
const MAGIC: Array<{ bytes: number[]; at?: number; type: string }> = [
  { bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], type: 'image/png' },
  { bytes: [0xff, 0xd8, 0xff], type: 'image/jpeg' },
  { bytes: [0x47, 0x49, 0x46, 0x38], type: 'image/gif' },
  { bytes: [0x57, 0x45, 0x42, 0x50], at: 8, type: 'image/webp' },
  { bytes: [0x49, 0x49, 0x2a, 0x00], type: 'image/tiff' },
  { bytes: [0x4d, 0x4d, 0x00, 0x2a], type: 'image/tiff' },
  { bytes: [0x57, 0x41, 0x56, 0x45], at: 8, type: 'audio/wav' },
  { bytes: [0x49, 0x44, 0x33], type: 'audio/mpeg' },
  { bytes: [0x66, 0x4c, 0x61, 0x43], type: 'audio/flac' },
  { bytes: [0x4f, 0x67, 0x67, 0x53], type: 'audio/ogg' },
  { bytes: [0x1a, 0x45, 0xdf, 0xa3], type: 'video/webm' },
  { bytes: [0x25, 0x50, 0x44, 0x46], type: 'application/pdf' },
];

/** The media type from the leading bytes, else from the file name's extension. */
export function contentTypeOf(filename: string, head: Buffer): string {
  const magic = MAGIC.find(({ bytes, at = 0 }) => bytes.every((byte, index) => head[at + index] === byte));
  if (magic !== undefined) return magic.type;
  if (head.subarray(4, 8).toString('latin1') === 'ftyp') {
    const brand = head.subarray(8, 12).toString('latin1');
    if (/^(avif|avis)$/.test(brand)) return 'image/avif';
    if (/^(heic|heix|mif1)$/.test(brand)) return 'image/heic';
    if (brand === 'M4A ') return 'audio/mp4';
    return brand === 'qt  ' ? 'video/quicktime' : 'video/mp4';
  }
  const extension = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase() ?? '';
  return BY_EXTENSION[extension] ?? 'application/octet-stream';
}

/** The asset `type` (DESIGN §6) of a media type. */
export function assetTypeOf(contentType: string): 'File' | 'Image' | 'Video' | 'Audio' {
  if (contentType.startsWith('image/')) return 'Image';
  if (contentType.startsWith('video/')) return 'Video';
  if (contentType.startsWith('audio/')) return 'Audio';
  return 'File';
}

/** Media types sharp reads (and so renditions and conversion are offered for). */
export function isConvertibleImage(contentType: string): boolean {
  return [
    'image/jpeg',
    'image/png',
    'image/gif',
    'image/webp',
    'image/tiff',
    'image/avif',
    'image/svg+xml',
  ].includes(contentType);
}

/** How renditions of a media type are made (DESIGN §12, "Previews"): none for the others. */
export type PreviewSource = 'image' | 'video' | 'pdf';

export function previewSourceOf(contentType: string): PreviewSource | undefined {
  if (isConvertibleImage(contentType)) return 'image';
  if (contentType.startsWith('video/')) return 'video';
  if (contentType === 'application/pdf') return 'pdf';
  return undefined;
}

/** Passes bytes through unchanged, keeping a copy of the first `SNIFF_BYTES`. */
export function headCapture(): { stream: Transform; head: () => Buffer } {
  const parts: Buffer[] = [];
  let kept = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (kept < SNIFF_BYTES) {
        const part = chunk.subarray(0, SNIFF_BYTES - kept);
        parts.push(Buffer.from(part));
        kept += part.length;
      }
      callback(null, chunk);
    },
  });
  return { stream, head: () => Buffer.concat(parts) };
}
