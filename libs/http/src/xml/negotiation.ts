/**
 * Content negotiation between the two representations of a JSON body: JSON and XML.
 *
 * Rules (kept deliberately small, see DESIGN §3):
 * - each representation gets the q-value of the most specific `Accept` range that matches it
 *   (`application/json`; XML: `application/xml` or `text/xml`, the better of the two), exact type before
 *   `type/*` before `*∕*`; `q=0` means "not acceptable";
 * - the higher q wins; at equal q, the representation named more specifically wins, then the one whose
 *   range is listed first;
 * - a missing or empty `Accept`, or a tie that only wildcards make (`*∕*`, `application/*`), gives the
 *   default: JSON, or XML when `DAM_XML_BY_DEFAULT=true` (as Asset Bank answers);
 * - when neither is acceptable the answer is `none` (406).
 */
export type Representation = 'json' | 'xml';

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
  index: number;
}

interface Match {
  q: number;
  specificity: number;
  index: number;
}

const XML_TYPES: ReadonlyArray<[string, string]> = [
  ['application', 'xml'],
  ['text', 'xml'],
];

export function negotiate(accept: string | undefined, xmlByDefault: boolean): Representation | 'none' {
  const fallback: Representation = xmlByDefault ? 'xml' : 'json';
  const ranges = parseAccept(accept);
  if (ranges.length === 0) return fallback;
  const json = bestMatch(ranges, [['application', 'json']]);
  const xml = bestMatch(ranges, XML_TYPES);
  const jsonQ = json?.q ?? 0;
  const xmlQ = xml?.q ?? 0;
  if (jsonQ === 0 && xmlQ === 0) return 'none';
  if (jsonQ !== xmlQ) return jsonQ > xmlQ ? 'json' : 'xml';
  // Equal and positive: both matched.
  const [j, x] = [json as Match, xml as Match];
  if (j.specificity !== x.specificity) return j.specificity > x.specificity ? 'json' : 'xml';
  if (j.specificity === 2 && j.index !== x.index) return j.index < x.index ? 'json' : 'xml';
  return fallback;
}

/** Ranges in the order listed; malformed entries are skipped, a malformed q counts as 1. */
export function parseAccept(accept: string | undefined): MediaRange[] {
  if (accept === undefined) return [];
  const ranges: MediaRange[] = [];
  accept.split(',').forEach((entry, index) => {
    const [mediaType, ...parameters] = entry.split(';').map((part) => part.trim());
    const match = /^([\w.+*-]+)\/([\w.+*-]+)$/.exec(mediaType ?? '');
    if (match === null) return;
    let q = 1;
    for (const parameter of parameters) {
      const [name, value] = parameter.split('=').map((part) => part.trim());
      if (name?.toLowerCase() !== 'q') continue;
      const parsed = Number(value);
      if (value !== undefined && /^\d+(\.\d+)?$/.test(value) && parsed >= 0 && parsed <= 1) q = parsed;
    }
    ranges.push({ type: match[1].toLowerCase(), subtype: match[2].toLowerCase(), q, index });
  });
  return ranges;
}

function bestMatch(ranges: MediaRange[], types: ReadonlyArray<[string, string]>): Match | undefined {
  let best: Match | undefined;
  for (const [type, subtype] of types) {
    let found: Match | undefined;
    for (const range of ranges) {
      const specificity =
        range.type === type && range.subtype === subtype
          ? 2
          : range.type === type && range.subtype === '*'
            ? 1
            : range.type === '*' && range.subtype === '*'
              ? 0
              : -1;
      if (specificity < 0) continue;
      if (found === undefined || specificity > found.specificity)
        found = { q: range.q, specificity, index: range.index };
    }
    if (found === undefined) continue;
    if (
      best === undefined ||
      found.q > best.q ||
      (found.q === best.q && (found.specificity > best.specificity || found.index < best.index))
    ) {
      best = found;
    }
  }
  return best;
}
