import { TermQuery } from '../ports/asset-filter';
import { SqlParams } from './sql-params';

/**
 * Words as SQL: a keyword query compiled to conditions on the `assets` alias `a` through the token index
 * (`asset_search_tokens`), and the statements keyword-plan.ts reads a conjunction of words with.
 */

export const TOKENS = 'asset_search_tokens';

/** One token condition of a word: the token itself, or (`prefix`) every token starting with it. */
export interface TokenMatch {
  token: string;
  prefix: boolean;
}

/**
 * The conjunctions of words (nodes of the query, by identity, as conjunctionTokens accepts them) that
 * keywordSql does not compile to a semi-join per token: either the assets they match, already read by
 * one grouped scan (a short list of ids), or `'grouped'`, that scan as a subquery (too many ids to list).
 * Which ones gain by it is keyword-plan.ts's choice.
 */
export type KeywordPlan = ReadonlyMap<TermQuery, PlannedConjunction>;

/**
 * How one conjunction is read: the ids of the assets it matches (few enough to list), `'grouped'` (the
 * grouped scan as a subquery), or `{ driving }`: the driving condition's rows probing the other conditions
 * by the primary key (probedAssetIdsSql as a subquery, MySQL, every other condition an exact token).
 */
export type PlannedConjunction = readonly number[] | 'grouped' | { driving: number };

/** A semi-join per token everywhere. */
export const PER_TOKEN: KeywordPlan = new Map();

/**
 * NOT binds to its operand; OR of plain words becomes one index scan instead of one per word; a
 * conjunction in `plan` becomes the list of ids it matched, or its grouped scan (groupedAssetIdsSql).
 */
export function keywordSql(
  query: TermQuery,
  attributeIds: readonly number[],
  params: SqlParams,
  plan: KeywordPlan = PER_TOKEN,
): string {
  const attributes = attributeIds.length === 0 ? '' : attributeIdSql(attributeIds, params);
  const matching = (tokenCondition: string): string =>
    attributeIds.length === 0
      ? '1 = 0'
      : `a.id IN (SELECT t.asset_id FROM ${TOKENS} t WHERE ${tokenCondition} AND t.attribute_id ${attributes})`;
  const build = (node: TermQuery): string => {
    const planned = attributeIds.length > 0 ? plan.get(node) : undefined;
    const grouped = planned === 'grouped' ? conjunctionTokens(node) : undefined;
    if (grouped !== undefined) return `a.id IN (${groupedAssetIdsSql(grouped, attributeIds, params)})`;
    const driving = typeof planned === 'object' && 'driving' in planned ? planned.driving : undefined;
    const probed = driving === undefined ? undefined : conjunctionTokens(node);
    if (probed !== undefined && driving !== undefined)
      return `a.id IN (${probedAssetIdsSql(probed, attributeIds, params, driving)})`;
    if (Array.isArray(planned)) return planned.length === 0 ? '1 = 0' : `a.id IN ${params.add([...planned])}`;
    switch (node.kind) {
      case 'all':
        return '1 = 1';
      case 'term':
        return join(
          'AND',
          termTokens(node).map((match) => matching(tokenSql(match, params))),
        );
      case 'not':
        return `NOT (${build(node.item)})`;
      case 'and':
        return join('AND', node.items.map(build));
      case 'or': {
        const single = node.items.every((item) => item.kind === 'term' && item.tokens.length === 1);
        if (!single) return join('OR', node.items.map(build));
        const words = node.items.map((item) =>
          item.kind === 'term' ? tokenSql({ token: item.tokens[0], prefix: item.prefix }, params) : '1 = 0',
        );
        return matching(`(${words.join(' OR ')})`);
      }
    }
  };
  return build(query);
}

/**
 * The token conditions of a conjunction of plain words (an AND of terms, or one term of several tokens),
 * each once; undefined for any other node (NOT or OR inside) or when fewer than two conditions remain.
 */
export function conjunctionTokens(node: TermQuery): TokenMatch[] | undefined {
  const terms = node.kind === 'and' ? node.items : [node];
  const matches = new Map<string, TokenMatch>();
  for (const term of terms) {
    if (term.kind !== 'term') return undefined;
    for (const match of termTokens(term)) matches.set(`${match.prefix ? '>' : '='}${match.token}`, match);
  }
  return matches.size >= 2 ? [...matches.values()] : undefined;
}

/**
 * The primary-key range of one token condition, every attribute (what keyword-plan.ts estimates);
 * `forcePrimary`: MySQL's hint to read that range.
 */
export function tokenRangeSql(match: TokenMatch, params: SqlParams, forcePrimary = true): string {
  const hint = forcePrimary ? ' FORCE INDEX (PRIMARY)' : '';
  return `SELECT 1 FROM ${TOKENS} t${hint} WHERE ${tokenSql(match, params)}`;
}

/**
 * The ids of the assets having every token condition in the attributes, from one scan of their rows
 * grouped by asset (HAVING: each condition met by one of the asset's rows). It reads every row of every
 * token, where the semi-joins read the rarest token's rows and probe the others per asset (see
 * keyword-plan.ts).
 */
export function groupedAssetIdsSql(
  tokens: readonly TokenMatch[],
  attributeIds: readonly number[],
  params: SqlParams,
): string {
  const conditions = tokens.map((match) => tokenSql(match, params));
  const every = conditions.map((condition) => `MAX(${condition}) = 1`).join(' AND ');
  return (
    `SELECT t.asset_id FROM ${TOKENS} t WHERE (${conditions.join(' OR ')}) ` +
    `AND t.attribute_id ${attributeIdSql(attributeIds, params)} GROUP BY t.asset_id HAVING ${every}`
  );
}

/**
 * The ids of the assets having every token condition in the attributes (MySQL), when one condition is far
 * commoner than the others: the others' assets are materialised first (each a short primary-key range),
 * then the commonest condition's range is read in index order and each of its rows looked up in them.
 * The grouped scan sorts and groups every row of every condition instead (`misoba nuba*` at 1M, 16,434
 * and 228,567 rows: 0.17 s grouped, 0.08 s this way); probing the commonest per asset of the others
 * would read the (asset_id, token) index at random (1.1 s on a 128 MiB buffer pool): FORCE INDEX keeps
 * MariaDB on the range.
 */
export function scannedAssetIdsSql(
  tokens: readonly TokenMatch[],
  attributeIds: readonly number[],
  params: SqlParams,
  scanned: number,
  slice?: ScanSlice,
): string {
  const attributes = attributeIdSql(attributeIds, params);
  const assets = (alias: string): string =>
    slice === undefined
      ? ''
      : ` AND ${alias}.asset_id BETWEEN ${params.add(slice.fromAssetId)} AND ${params.add(slice.toAssetId)}`;
  const lookups = otherConditions(tokens, scanned, 'm', params, attributes).map(
    ({ alias, where }) =>
      `t.asset_id IN (SELECT ${alias}.asset_id FROM ${TOKENS} ${alias} WHERE ${where}${assets(alias)})`,
  );
  const range =
    slice === undefined
      ? tokenSql(tokens[scanned], params)
      : `t.token IN ${params.add([...slice.tokens])}${assets('t')}`;
  return (
    `SELECT DISTINCT t.asset_id FROM ${TOKENS} t FORCE INDEX (PRIMARY) ` +
    `WHERE ${range} AND t.attribute_id ${attributes} AND ${lookups.join(' AND ')}`
  );
}

/**
 * A slice of the scanned form (MySQL): the scanned condition as the distinct tokens it covers (a prefix
 * read out beforehand), and the assets from `fromAssetId` to `toAssetId`. With the tokens listed, each is
 * its own stretch of the primary key `(token, asset_id, ...)` and the asset bounds cut those stretches,
 * so slices of the assets read disjoint halves of the rows and run side by side on two connections.
 */
export interface ScanSlice {
  tokens: readonly string[];
  fromAssetId: number;
  toAssetId: number;
}

/** The first token of the index after `after` (or from `start`) and before `end`: one step of a prefix read out. */
export function nextTokenSql(
  bounds: { start: string; end: string; after?: string },
  params: SqlParams,
): string {
  const from =
    bounds.after === undefined
      ? `t.token >= ${params.add(bounds.start)}`
      : `t.token > ${params.add(bounds.after)}`;
  return `SELECT t.token FROM ${TOKENS} t WHERE ${from} AND t.token < ${params.add(bounds.end)} ORDER BY t.token LIMIT 1`;
}

/** A prefix condition's range bounds: from the prefix to its successor (exclusive). */
export function prefixBounds(prefix: string): { start: string; end: string } {
  return { start: prefix, end: successor(prefix) };
}

/**
 * The ids of the assets having every token condition in the attributes, driven from one condition's rows
 * (`driving`, the rarest): each asset found probes the others.
 * - SQLite, through the `(asset_id, token)` index. Left to itself SQLite builds the list of every
 *   condition's assets, the commonest included (`misoba nuba*` at 1M: 228,567 rows, twice, for the count
 *   and the page), where this reads 16,434 rows and probes each (28 ms).
 * - MySQL, when every other condition is an exact token: through the primary key `(token, asset_id, ...)`.
 *   The driving range comes in asset order, so the probes of each other token walk its own range in order
 *   too, a merge rather than random reads (keyword-plan.ts KEY_PROBE_MICROS).
 */
export function probedAssetIdsSql(
  tokens: readonly TokenMatch[],
  attributeIds: readonly number[],
  params: SqlParams,
  driving: number,
): string {
  const attributes = attributeIdSql(attributeIds, params);
  const probes = otherConditions(tokens, driving, 'p', params, attributes).map(
    ({ alias, where }) =>
      `EXISTS (SELECT 1 FROM ${TOKENS} ${alias} WHERE ${alias}.asset_id = d.asset_id AND ${where})`,
  );
  return (
    `SELECT DISTINCT d.asset_id FROM ${TOKENS} d ` +
    `WHERE ${tokenSql(tokens[driving], params, 'd')} AND d.attribute_id ${attributes} AND ${probes.join(' AND ')}`
  );
}

/**
 * Every token condition but the `except`-th, each on its own alias of the token table (`m0`, `m1`, ...)
 * with its condition on that alias in the attributes (`attributes`: attributeIdSql).
 */
function otherConditions(
  tokens: readonly TokenMatch[],
  except: number,
  aliasPrefix: string,
  params: SqlParams,
  attributes: string,
): Array<{ alias: string; where: string }> {
  return tokens
    .filter((_, i) => i !== except)
    .map((match, i) => {
      const alias = `${aliasPrefix}${i}`;
      return { alias, where: `${tokenSql(match, params, alias)} AND ${alias}.attribute_id ${attributes}` };
    });
}

/** A term's tokens, all required; `prefix` applies to the last. */
function termTokens(term: TermQuery & { kind: 'term' }): TokenMatch[] {
  return term.tokens.map((token, i) => ({ token, prefix: term.prefix && i === term.tokens.length - 1 }));
}

function tokenSql({ token, prefix }: TokenMatch, params: SqlParams, alias = 't'): string {
  return prefix
    ? `(${alias}.token >= ${params.add(token)} AND ${alias}.token < ${params.add(successor(token))})`
    : `${alias}.token = ${params.add(token)}`;
}

function attributeIdSql(attributeIds: readonly number[], params: SqlParams): string {
  return attributeIds.length === 1
    ? `= ${params.add(attributeIds[0])}`
    : `IN ${params.add([...attributeIds])}`;
}

function join(operator: 'AND' | 'OR', parts: string[]): string {
  return parts.length === 1 ? parts[0] : `(${parts.join(` ${operator} `)})`;
}

/** The smallest string above every string starting with `prefix` (byte order, as both databases compare). */
export function successor(prefix: string): string {
  const chars = [...prefix];
  const last = chars.pop() ?? '';
  return chars.join('') + String.fromCodePoint((last.codePointAt(0) ?? 0) + 1);
}
