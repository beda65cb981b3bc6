const FALLBACK_NAME = 'download';
const MAX_NAME_LENGTH = 200;

/**
 * The file name made harmless for a header and a download folder: no control characters (so no header
 * injection), no quotes, backslashes or path separators (so no `../`), no leading dots, at most 200
 * characters. Returns `download` when nothing is left.
 */
export function safeFilename(name: string): string {
  const limited = [...strip(name.normalize('NFC'))].slice(0, MAX_NAME_LENGTH).join('').trim();
  return limited === '' ? FALLBACK_NAME : limited;
}

function strip(name: string): string {
  return name
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}"\\/]/gu, '')
    .replace(/\s+/gu, ' ')
    .replace(/^[\s.]+|[\s.]+$/gu, '');
}

/**
 * An ASCII-only approximation for clients that ignore `filename*`. A `%` before two hex digits becomes
 * `_`: some clients would decode `%41` there (RFC 6266 appendix D). Any other `%` stays, so a name such
 * as `100% red.jpg` is its own fallback and needs no `filename*` (whose `*` and `''` some S3 emulators
 * sign otherwise than S3, refusing the presigned URL).
 */
function asciiFallback(name: string): string {
  // Compatibility decomposition can produce new quotes, slashes or dots (＂ ／ ․): strip again after it.
  const ascii = strip(name.normalize('NFKD').replace(/\p{M}/gu, ''))
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/%(?=[0-9A-Fa-f]{2})/g, '_');
  return ascii.trim() === '' ? FALLBACK_NAME : ascii;
}

/** RFC 8187 ext-value: UTF-8 percent-encoding of everything but attr-chars. */
function extValue(name: string): string {
  return `UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

/**
 * Raster image types a browser shows inline without running anything in them. Not SVG (it carries
 * scripts), not HTML or XML, not PDF: everything else downloads (`attachment`), so an uploaded page
 * never runs on the service's origin.
 */
const INLINE_TYPES = new Set([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'image/x-icon',
  'image/vnd.microsoft.icon',
]);

/** Whether a stored file of this media type may be shown inline (parameters and case ignored). */
export function isSafeInlineType(contentType: string | undefined): boolean {
  const mediaType = contentType?.split(';')[0].trim().toLowerCase();
  return mediaType !== undefined && INLINE_TYPES.has(mediaType);
}

/**
 * `attachment; filename="<ascii>"; filename*=UTF-8''<percent-encoded>` (RFC 6266), or `inline; ...` for a
 * safe image type (`isSafeInlineType`). `filename*` is added only when the ASCII form differs from the
 * real name: it is redundant otherwise, and some S3 emulators mis-sign presigned URLs whose parameters
 * contain `*` or `'`.
 */
export function contentDisposition(filename: string | undefined, contentType?: string): string {
  const kind = isSafeInlineType(contentType) ? 'inline' : 'attachment';
  if (filename === undefined) return kind;
  const name = safeFilename(filename);
  const ascii = asciiFallback(name);
  const header = `${kind}; filename="${ascii}"`;
  return ascii === name ? header : `${header}; filename*=${extValue(name)}`;
}
