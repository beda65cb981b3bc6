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

/** An ASCII-only, `%`-free approximation for clients that ignore `filename*`. */
function asciiFallback(name: string): string {
  // Compatibility decomposition can produce new quotes, slashes or dots (＂ ／ ․): strip again after it.
  const ascii = strip(name.normalize('NFKD').replace(/\p{M}/gu, '')).replace(/[^\x20-\x7e]|%/g, '_');
  return ascii.trim() === '' ? FALLBACK_NAME : ascii;
}

/** RFC 8187 ext-value: UTF-8 percent-encoding of everything but attr-chars. */
function extValue(name: string): string {
  return `UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

/**
 * `attachment; filename="<ascii>"; filename*=UTF-8''<percent-encoded>` (RFC 6266). `filename*` is added only
 * when the ASCII form differs from the real name: it is redundant otherwise, and some S3 emulators
 * mis-sign presigned URLs whose parameters contain `*` or `'`.
 */
export function contentDisposition(filename: string | undefined): string {
  if (filename === undefined) return 'attachment';
  const name = safeFilename(filename);
  const ascii = asciiFallback(name);
  const header = `attachment; filename="${ascii}"`;
  return ascii === name ? header : `${header}; filename*=${extValue(name)}`;
}
