/** The longest entry name kept, in characters (the extension is kept when a name is cut). */
const MAX_NAME = 200;

/**
 * A file name that is safe as one ZIP entry: no directory part can be made of it (`/` and `\` become
 * `_`, so `../x` is `.._x`, inside the archive), no control or reserved characters (Windows' `<>:"|?*`),
 * no trailing dots or spaces, never empty (`.` and `..` are `file`), at most MAX_NAME characters.
 */
export function safeEntryName(filename: string): string {
  // eslint-disable-next-line no-control-regex
  let name = filename.replace(/[\u0000-\u001f\u007f/\\<>:"|?*]/g, '_').trim();
  // Windows drops trailing dots and spaces (`..` would become nothing).
  name = name.replace(/[. ]+$/, '');
  if (name === '') name = 'file';
  if (name.length > MAX_NAME) {
    const extension = /\.[^.]{1,16}$/.exec(name)?.[0] ?? '';
    name = name.slice(0, MAX_NAME - extension.length) + extension;
  }
  return name;
}

/**
 * Safe names for `filenames`, made unique without regard to case (as Windows and macOS file systems
 * compare them): a repeated name gets ` (2)`, ` (3)`, ... before its extension.
 */
export function uniqueEntryNames(filenames: readonly string[]): string[] {
  const taken = new Set<string>();
  return filenames.map((filename) => {
    const safe = safeEntryName(filename);
    const [, stem, extension] = /^(.*[^.])(\.[^.]{1,16})$/.exec(safe) ?? [safe, safe, ''];
    let name = safe;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${stem} (${n})${extension}`;
    taken.add(name.toLowerCase());
    return name;
  });
}
