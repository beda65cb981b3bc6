/** Names Windows refuses whatever their extension. */
const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i;
const MAX_BYTES = 200;

/**
 * A file name that is safe in one folder on any system: the last segment of `raw` only (no path
 * traversal), without control or reserved characters, leading dots or trailing dots and spaces,
 * at most 200 bytes (the extension kept); `fallback` when nothing is left.
 */
export function safeName(raw: string, fallback: string): string {
  let name = (raw.split(/[\\/]/).pop() ?? '')
    .normalize('NFC')
    .replace(/[<>:"|?*]/g, '_')
    .replace(/\p{Cc}/gu, '_')
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '');
  if (name === '') name = fallback;
  if (RESERVED.test(name)) name = `_${name}`;
  return shorten(name, MAX_BYTES);
}

function shorten(name: string, maxBytes: number): string {
  if (Buffer.byteLength(name) <= maxBytes) return name;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
  let stem = name.slice(0, name.length - extension.length);
  while (Buffer.byteLength(stem + extension) > maxBytes) stem = [...stem].slice(0, -1).join('');
  return stem + extension;
}

/** Hands out names unique in one folder, ignoring case (`a.jpg`, `a (2).jpg`, ...). */
export class UniqueNames {
  private readonly taken = new Set<string>();

  constructor(reserved: string[] = []) {
    reserved.forEach((name) => this.taken.add(name.toLowerCase()));
  }

  claim(name: string): string {
    const dot = name.lastIndexOf('.');
    const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    let candidate = name;
    for (let counter = 2; this.taken.has(candidate.toLowerCase()); counter++) {
      candidate = shorten(`${stem} (${counter})`, MAX_BYTES - Buffer.byteLength(extension)) + extension;
    }
    this.taken.add(candidate.toLowerCase());
    return candidate;
  }
}
