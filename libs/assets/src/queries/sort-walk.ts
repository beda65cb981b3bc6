/**
 * When a page of a numeric sort walks `asset_sort_numbers (attribute_id, value, asset_id)` in order and
 * stops after the page (MySQL), instead of the general query that reads and sorts every match: judged
 * first from the plan's estimate, then from the count.
 */

/**
 * The sort-index walk is used when it should read at most about this many index entries: a page at
 * offset `o` of a result matching `total` of `n` assets needs about `(o + limit) * n / total`.
 */
export const SORT_WALK_LIMIT = 50_000;

/**
 * Before counting, the walk is tried only when it should read at most the filter's estimated rows
 * divided by this: the count it waits for reads those rows too, and the general query that counts as it
 * sorts costs about 1.3-2 counts. Measured at 1M on MariaDB (18,153 matches of 40,922 estimated): count
 * 25 ms, walk 2 µs per entry, the counting general query 32-53 ms.
 */
export const WALK_SHARE_OF_ESTIMATE = 5;

/**
 * The same for a text sort, whose general query looks up each match's copy in `asset_sort_texts` (a
 * table the size of the library's text values: at 1M, 16,051 matches sorted by title took 70-180 ms
 * against a count of 25 ms and a walk of about 6,000 entries).
 */
export const TEXT_WALK_SHARE_OF_ESTIMATE = 1;

/**
 * Whether walking the sort index for the first `wanted` rows of `total` matches among about `assets`
 * assets reads at most SORT_WALK_LIMIT entries (about `wanted * assets / total`).
 */
export function walkPays(wanted: number, assets: number, total: number): boolean {
  return total > 0 && wanted * assets <= SORT_WALK_LIMIT * total;
}

/**
 * Whether the walk may pay, judged from the plan's estimate of the filter's rows before counting: the
 * visible share of them (the estimate does not see visibility) would leave it at most SORT_WALK_LIMIT
 * entries to read, and at most a `shareOfEstimate`-th of the rows the count must read first
 * (WALK_SHARE_OF_ESTIMATE for numbers, TEXT_WALK_SHARE_OF_ESTIMATE for texts).
 */
export function walkMayPay(
  wanted: number,
  assets: number,
  estimate: number,
  visibleShare = 1,
  shareOfEstimate = WALK_SHARE_OF_ESTIMATE,
): boolean {
  const visible = estimate * visibleShare;
  if (visible <= 0) return false;
  const entries = (wanted * assets) / visible;
  return entries <= SORT_WALK_LIMIT && entries * shareOfEstimate <= estimate;
}

/**
 * A walk that meets `assets / matches` assets per match can test one word per asset in two ways: probe the
 * word's token rows per asset it meets (costs per asset walked: about 35 µs at 1M on MariaDB), or first
 * gather the word's assets (a semi-join the database materialises: costs per match, about 1 µs) and test
 * each asset met against them. Probing pays for common words, gathering for rarer ones: at 1M assets and a
 * first page, the title walk of the word of rank 100 (16,051 matches) took 210 ms probed and 22 ms
 * gathered, rank 10 (103,765) 26 and 33 ms, rank 5 (192,828) 9 and 54 ms. Walking `wanted * assets /
 * matches` rows against gathering `matches` crosses at `matches² = PROBE_RATIO * wanted * assets`. A viewer
 * who sees part of the word walks further for the same page, but gathering still reads all of it.
 */
export const PROBE_RATIO = 35;

/**
 * Whether a walk for the first `wanted` of one word's `matches` (those its viewer sees) among `assets`
 * should probe the word; `gathered`: every asset with the word, which gathering reads whoever looks.
 */
export function probeWordPays(wanted: number, assets: number, matches: number, gathered = matches): boolean {
  return matches * gathered >= PROBE_RATIO * wanted * assets;
}
