/** Language tags from an Accept-Language header, best first; malformed entries are dropped. */
export function parseAcceptLanguage(header: string | undefined): string[] {
  if (header === undefined || header.length > 1000) return [];
  return header
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const q = qParam === undefined ? 1 : Number(qParam.slice(2));
      return { tag: tag.trim().toLowerCase(), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => /^([a-z]{1,8}(-[a-z0-9]{1,8})*|\*)$/.test(entry.tag) && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((entry) => entry.tag);
}

/**
 * The first configured language the client accepts (exact tag, then primary subtag), else the default
 * (the first configured language).
 */
export function negotiateLanguage(accepted: string[], configured: string[]): string {
  for (const tag of accepted) {
    if (configured.includes(tag)) return tag;
    const primary = tag.split('-')[0];
    const match = configured.find((code) => code === primary || code.split('-')[0] === primary);
    if (match !== undefined) return match;
  }
  return configured[0];
}
