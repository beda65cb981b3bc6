import { AssetFilter, TermQuery } from '../ports/asset-filter';
import { conjunctionTokens, KeywordPlan, PER_TOKEN, PlannedConjunction, TokenMatch } from './keyword.sql';

/**
 * Which conjunctions of words (`misoba nuba*`) keywordSql reads in one grouped scan instead of a
 * semi-join per token, from the number of index rows MySQL estimates for each token condition (EXPLAIN
 * of the primary-key range: index dives, about a millisecond for any size, where counting 228,567 rows
 * took 60-150 ms). The estimate covers the token in every attribute, which is what the grouped scan
 * reads (it filters the attributes inside the range), and at most about twice what the probes start
 * from (the keyword attributes hold about half of the tokens in the benchmark's data).
 *
 * The cost model, measured on MariaDB with a 128 MiB buffer pool and 1M assets (21M token rows), per
 * estimated row:
 * - per token (today's form): MariaDB reads the rarest condition's rows and, per asset found, probes the
 *   (asset_id, token) index for each other condition: a random read into an index that does not fit in
 *   the pool. `misoba` (estimated 33,414 rows) ANDed with `nuba*`: 1.2 s, about PROBE_MICROS per row.
 * - grouped: one primary-key range per condition, every row of every condition, grouped by asset.
 *   `misoba` with `nuba*` (estimated 475,572): 0.27-0.30 s, about GROUPED_ROW_MICROS per row.
 * So the grouped scan wins when the conditions are similarly common and loses badly when one is rare
 * and another very common (a rare word AND `mi*`, estimated 1.4M rows).
 */

/** One probe of the (asset_id, token) index on a cold pool, in µs, per estimated row of the rarest condition. */
export const PROBE_MICROS = 36;

/** One row read and grouped by the grouped scan, in µs, per estimated row of every condition. */
export const GROUPED_ROW_MICROS = 0.6;

/**
 * One row of the driving condition probing the other conditions by the primary key, in µs per estimated
 * row of the driver (MySQL, every other condition an exact token: probedAssetIdsSql). At 1M on MariaDB
 * (128 MiB pool), the AND of the two commonest words, 305,769 assets: the grouped scan 2.7 s, driven from
 * the rarer's rows probing the commoner's by key 1.0 s; the word of rank 30 AND rank 1: 1.3 s and 0.22 s.
 */
export const KEY_PROBE_MICROS = 1;

/**
 * The condition that may drive a conjunction probing the others by key: the rarest, when every other one
 * is an exact token (a prefix would be a range per probe); the one prefix when it is the only one.
 * Undefined when two or more conditions are prefixes.
 */
export function keyProbeDriver(
  conditions: readonly TokenMatch[],
  rows: readonly number[],
): number | undefined {
  const prefixes = conditions.flatMap((condition, i) => (condition.prefix ? [i] : []));
  if (prefixes.length > 1) return undefined;
  if (prefixes.length === 1) return prefixes[0];
  return rows.indexOf(Math.min(...rows));
}

/** Whether driving from `driving` and probing the others by key costs less than the other two forms. */
export function keyProbePays(rows: readonly number[], driving: number): boolean {
  const { probes, grouped } = formCosts(rows);
  return rows[driving] * KEY_PROBE_MICROS < Math.min(probes, grouped);
}

/** The cheaper form by the cost model: probes ≈ rarest × PROBE_MICROS, grouped ≈ all × GROUPED_ROW_MICROS. */
export function chooseConjunctionForm(rows: readonly number[]): 'perToken' | 'grouped' {
  const { probes, grouped } = formCosts(rows);
  return grouped < probes ? 'grouped' : 'perToken';
}

/** The cost model's µs for the per-token probes and for the grouped scan. */
function formCosts(rows: readonly number[]): { probes: number; grouped: number } {
  return {
    probes: Math.min(...rows) * PROBE_MICROS,
    grouped: rows.reduce((total, n) => total + n, 0) * GROUPED_ROW_MICROS,
  };
}

/**
 * Estimates the index rows of each token condition (MySQL: EXPLAIN of its range; SQLite: a count bounded
 * to a cap); undefined where the per-token form is always kept.
 */
export type TokenRowEstimator = (conditions: readonly TokenMatch[]) => Promise<number[] | undefined>;

/**
 * How the database answers a conjunction of token conditions, given each one's estimated rows: the
 * assets having every condition, read once, when there are few enough to list; `'grouped'`, the grouped
 * scan as a subquery (too many to list); or undefined, the semi-join per token. On MySQL the cost model
 * above decides between the per-token form and a grouped scan (or, with a far commoner condition, its
 * range scanned against the others'); listed, the assets are read once for the count, the page and the
 * facets alike, where as a subquery MariaDB cannot tell how few they are and, beside another condition
 * (a viewer's visibility), drives from every asset instead (a viewer's `misoba nuba*`: 1.9 s p50 against
 * 0.37 s). On SQLite, whose page cache holds the `(asset_id, token)` index, the rarest condition's assets
 * probe the others' there, and are listed when few enough.
 */
export type ConjunctionReader = (
  conditions: readonly TokenMatch[],
  attributeIds: readonly number[],
  rows: readonly number[],
) => Promise<PlannedConjunction | undefined>;

/** The plan of the filter's keywords: each conjunction of words that the reader answers otherwise than per token. */
export async function planKeywords(
  keywords: AssetFilter['keywords'],
  estimate: TokenRowEstimator,
  read: ConjunctionReader,
): Promise<KeywordPlan> {
  if (keywords === undefined || keywords.attributeIds.length === 0) return PER_TOKEN;
  const { attributeIds } = keywords;
  const conjunctions = conjunctionsOf(keywords.query);
  const planned = await Promise.all(
    conjunctions.map(async ({ tokens }): Promise<PlannedConjunction | undefined> => {
      const rows = await estimate(tokens);
      return rows === undefined ? undefined : read(tokens, attributeIds, rows);
    }),
  );
  const plan = new Map<TermQuery, PlannedConjunction>();
  conjunctions.forEach(({ node }, i) => {
    const form = planned[i];
    if (form !== undefined) plan.set(node, form);
  });
  return plan;
}

/**
 * The conjunctions of words in the query, outermost first: an AND of plain words or one word of several
 * tokens (conjunctionTokens); inside anything else (NOT, OR, an AND with those) the walk goes on.
 */
function conjunctionsOf(node: TermQuery): Array<{ node: TermQuery; tokens: TokenMatch[] }> {
  const tokens = conjunctionTokens(node);
  if (tokens !== undefined) return [{ node, tokens }];
  switch (node.kind) {
    case 'and':
    case 'or':
      return node.items.flatMap(conjunctionsOf);
    case 'not':
      return conjunctionsOf(node.item);
    default:
      return [];
  }
}
