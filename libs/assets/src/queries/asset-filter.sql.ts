import { Viewer } from '@dam/access';
import { exactValueToken, exceedsExactToken } from '@dam/core';
import { AssetFilter, AttributeCondition, TermQuery, TimeBound } from '../ports/asset-filter';
import { VisibleLevelSets } from '../rules/asset-visibility';

/**
 * The typed AssetFilter compiled to SQL conditions on the `assets` alias `a`, and the SQL forms of the
 * asset rules (visibility, approval state) beside the in-memory ones in ../rules, whose spec checks that
 * both agree. Nothing here leaves the assets area: callers hand in an AssetFilter.
 */

/** Named parameters unique within one query (`s0`, `s1`, ...), so fragments compose. */
export class SqlParams {
  readonly values: Record<string, unknown> = {};
  private next = 0;

  add(value: unknown): string {
    const name = `s${this.next++}`;
    this.values[name] = value;
    return Array.isArray(value) ? `(:...${name})` : `:${name}`;
  }
}

/** Conditions only the assets area itself asks for (never part of the AssetFilter port). */
export interface InternalFilter extends AssetFilter {
  /** Assets the viewer may approve: approve on every one of their levels (the approval queues). */
  approvableBy?: Viewer;
}

const TOKENS = 'asset_search_tokens';

/**
 * The filter as SQL conditions on `a`, to be ANDed. Words go through the token index (`a.id IN (SELECT
 * asset_id FROM asset_search_tokens ...)`, a semi-join both databases drive from the index); links
 * through their own tables' indexes. Visibility comes last.
 */
/**
 * `probeVisibility`: how a viewer's visibility is tested. Undefined: as a probe after conditions that
 * narrow the rows, else materialised (counts); true: always a probe (a page walking an index in order
 * and stopping after it, where a probe per row read is cheaper than materialising every visible asset).
 * `keywordPlan`: the conjunctions of words answered by one grouped scan (see keywordSql); none by default.
 * `levelSets`: the sets of levels the viewer sees assets through (`visibleLevelSets`), tested on the
 * asset row itself instead of probing its levels; none by default.
 */
export function filterConditions(
  filter: InternalFilter,
  params: SqlParams,
  probeVisibility?: boolean,
  keywordPlan: KeywordPlan = PER_TOKEN,
  levelSets?: VisibleLevelSets,
): string[] {
  const where: string[] = [];
  if (filter.keywords !== undefined)
    where.push(keywordSql(filter.keywords.query, filter.keywords.attributeIds, params, keywordPlan));
  const attributes = filter.attributes;
  if (attributes !== undefined && attributes.conditions.length > 0) {
    const parts = attributes.conditions.map((condition) => attributeSql(condition, params));
    where.push(`(${parts.join(` ${attributes.conjunction} `)})`);
  }
  if (filter.ids !== undefined && filter.ids.length > 0) {
    const ranges = filter.ids.map(({ from, to }) =>
      from === to ? `a.id = ${params.add(from)}` : `a.id BETWEEN ${params.add(from)} AND ${params.add(to)}`,
    );
    where.push(`(${ranges.join(' OR ')})`);
  }
  if (filter.assetType !== undefined) {
    const { id, name } = filter.assetType;
    where.push(
      `(a.asset_type_id = ${params.add(id)} OR (a.asset_type_id IS NULL AND a.type = ${params.add(name)}))`,
    );
  }
  if (filter.filename !== undefined)
    where.push(filenameSql(filter.filename.pattern, filter.filename.attributeId, params));
  where.push(
    ...timeSql('a.created_at', filter.addedAt ?? [], params),
    ...timeSql('a.updated_at', filter.modifiedAt ?? [], params),
  );
  if (filter.categoryIds !== undefined)
    where.push(linkSql('asset_categories', 'category_id', filter.categoryIds, params));
  if (filter.accessLevelIds !== undefined)
    where.push(linkSql('asset_access_levels', 'access_level_id', filter.accessLevelIds, params));
  if (filter.parentIds !== undefined)
    where.push(linkSql('asset_parents', 'parent_id', filter.parentIds, params));
  if (filter.approved !== undefined) where.push(stateSql(approvedSql(params), filter.approved));
  if (filter.submitted !== undefined) where.push(`a.submitted = ${params.add(filter.submitted)}`);
  if (filter.awaitingUploadApproval !== undefined)
    where.push(stateSql(awaitingUploadApprovalSql(params), filter.awaitingUploadApproval));
  if (filter.pendingEdit !== undefined) where.push(stateSql(pendingEditSql(params), filter.pendingEdit));
  if (filter.approvableBy !== undefined) {
    const approvable = approvableSql(filter.approvableBy, params);
    if (approvable !== undefined) where.push(approvable);
  }
  if (filter.visibleTo !== undefined) {
    const visible = visibilitySql(filter.visibleTo, params, probeVisibility ?? narrows(filter), levelSets);
    if (visible !== undefined) where.push(visible);
  }
  return where;
}

/**
 * `assetVisibleTo` (DESIGN §5) as SQL; undefined when the viewer sees everything. The uploader always;
 * others need view on one of its levels, and the asset live unless they may approve it (approve on
 * every one of its levels).
 */
export function visibilitySql(
  viewer: Viewer,
  params: SqlParams,
  probe = true,
  levelSets?: VisibleLevelSets,
): string | undefined {
  if (viewer.grants.all) return undefined;
  const uploader = `a.added_by_user_id = ${params.add(viewer.actor.id)}`;
  const throughLevels =
    levelSets === undefined
      ? levelVisibilitySql(viewer, params, probe)
      : levelSetVisibilitySql(levelSets, params);
  return throughLevels === undefined ? `(${uploader})` : `(${uploader} OR ${throughLevels})`;
}

/**
 * `visibleThroughLevels` as SQL: view on one of the asset's levels, and live or approvable; undefined
 * when the viewer has view on no level (nothing is visible that way).
 */
export function levelVisibilitySql(viewer: Viewer, params: SqlParams, probe = true): string | undefined {
  const { grants } = viewer;
  const viewLevels = grants.levelsWith('view');
  const approveLevels = grants.levelsWith('approve');
  if (viewLevels.length === 0) return undefined;
  // After conditions that narrow the rows (`probe`): a correlated probe of each remaining asset's own
  // levels (their primary key), written as a scalar subquery so that MariaDB does not turn it into an IN
  // and materialise every asset of every viewable level first. Alone, that materialised set is cheaper.
  const levels = `vis_v.asset_id = a.id AND vis_v.access_level_id IN ${params.add(viewLevels)}`;
  const viewable = probe
    ? `(SELECT COUNT(*) FROM asset_access_levels vis_v WHERE ${levels}) > 0`
    : `EXISTS (SELECT 1 FROM asset_access_levels vis_v WHERE ${levels})`;
  const live = `(a.submitted = ${params.add(true)} AND a.upload_pending = ${params.add(false)})`;
  let approvable = '';
  if (approveLevels.length > 0) {
    approvable =
      ' OR NOT EXISTS (SELECT 1 FROM asset_access_levels vis_p WHERE vis_p.asset_id = a.id ' +
      `AND vis_p.access_level_id NOT IN ${params.add(approveLevels)})`;
  }
  return `(${viewable} AND (${live}${approvable}))`;
}

/**
 * `visibleThroughLevels` as a test of the asset row: its set of levels (`a.level_set_id`) is one the
 * viewer sees assets of in any state, or in the live state and the asset is live. Undefined when there is
 * no such set. The sets come from `visibleLevelSets`, which applies the rule to each set.
 */
export function levelSetVisibilitySql(sets: VisibleLevelSets, params: SqlParams): string | undefined {
  const parts: string[] = [];
  if (sets.always.length > 0) parts.push(`a.level_set_id IN ${params.add(sets.always)}`);
  if (sets.live.length > 0) {
    const live = `a.submitted = ${params.add(true)} AND a.upload_pending = ${params.add(false)}`;
    parts.push(`(a.level_set_id IN ${params.add(sets.live)} AND ${live})`);
  }
  return parts.length === 0 ? undefined : `(${parts.join(' OR ')})`;
}

/** Whether the filter has a condition that keeps few rows (words, values, links, ids), to probe after. */
function narrows(filter: InternalFilter): boolean {
  return (
    filter.keywords !== undefined ||
    (filter.attributes?.conditions.length ?? 0) > 0 ||
    (filter.ids?.length ?? 0) > 0 ||
    filter.filename !== undefined ||
    filter.categoryIds !== undefined ||
    filter.accessLevelIds !== undefined ||
    filter.parentIds !== undefined
  );
}

/** Approve on every level of the asset: undefined for every asset, `1 = 0` for none. */
export function approvableSql(viewer: Viewer, params: SqlParams): string | undefined {
  if (viewer.grants.all) return undefined;
  const levels = viewer.grants.levelsWith('approve');
  if (levels.length === 0) return '1 = 0';
  return (
    'NOT EXISTS (SELECT 1 FROM asset_access_levels ap WHERE ap.asset_id = a.id ' +
    `AND ap.access_level_id NOT IN ${params.add(levels)})`
  );
}

/** `hasPendingEdit`: a pending attribute edit or pending content. */
export function pendingEditSql(params: SqlParams): string {
  return (
    `(a.content_pending = ${params.add(true)} OR ` +
    'EXISTS (SELECT 1 FROM asset_pending_edits pe WHERE pe.asset_id = a.id))'
  );
}

/** `isApproved`: no upload approval and no edit approval outstanding. */
export function approvedSql(params: SqlParams): string {
  const no = params.add(false);
  return (
    `(a.upload_pending = ${no} AND a.content_pending = ${no} AND NOT EXISTS ` +
    '(SELECT 1 FROM asset_pending_edits pe WHERE pe.asset_id = a.id))'
  );
}

/** `awaitsUploadApproval`: submitted and awaiting upload approval. */
export function awaitingUploadApprovalSql(params: SqlParams): string {
  const yes = params.add(true);
  return `(a.upload_pending = ${yes} AND a.submitted = ${yes})`;
}

function stateSql(sql: string, wanted: boolean): string {
  return wanted ? sql : `NOT ${sql}`;
}

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
export type KeywordPlan = ReadonlyMap<TermQuery, readonly number[] | 'grouped'>;

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
 * The ids of the assets having every token condition in the attributes (SQLite), driven from one
 * condition's rows (`driving`, the rarest): each asset found probes the others through the
 * `(asset_id, token)` index. Left to itself SQLite builds the list of every condition's assets, the
 * commonest included (`misoba nuba*` at 1M: 228,567 rows, twice, for the count and the page), where
 * this reads 16,434 rows and probes each (28 ms).
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

function attributeSql(condition: AttributeCondition, params: SqlParams): string {
  switch (condition.kind) {
    case 'addedBy':
      return condition.userIds.length === 0
        ? '1 = 0'
        : `a.added_by_user_id IN ${params.add(condition.userIds)}`;
    case 'words':
      return `(${keywordSql(condition.query, [condition.attributeId], params)})`;
    case 'equals': {
      const stored = condition.storedValue;
      const id = params.add(condition.attributeId);
      let sql = `a.id IN (SELECT t.asset_id FROM ${TOKENS} t WHERE t.token = ${params.add(exactValueToken(stored))} AND t.attribute_id = ${id})`;
      if (exceedsExactToken(stored)) {
        sql +=
          ` AND a.id IN (SELECT v.asset_id FROM asset_attribute_values v WHERE v.attribute_id = ${id} ` +
          `AND v.language = '' AND LOWER(v.value) = ${params.add(stored.toLowerCase())})`;
      }
      return `(${sql})`;
    }
  }
}

/** Case-insensitive; `*` stands for any characters, everything else is literal. */
function filenameSql(pattern: string, attributeId: number, params: SqlParams): string {
  const like = pattern
    .toLowerCase()
    .replace(/[!%_]/g, (char) => `!${char}`)
    .replace(/\*/g, '%');
  return (
    `a.id IN (SELECT v.asset_id FROM asset_attribute_values v WHERE v.attribute_id = ${params.add(attributeId)} ` +
    `AND v.language = '' AND LOWER(v.value) LIKE ${params.add(like)} ESCAPE '!')`
  );
}

function timeSql(column: string, bounds: TimeBound[], params: SqlParams): string[] {
  return bounds.map((bound) => `${column} ${bound.op} ${params.add(bound.at)}`);
}

function linkSql(table: string, column: string, ids: number[], params: SqlParams): string {
  if (ids.length === 0) return '1 = 0';
  return `a.id IN (SELECT l.asset_id FROM ${table} l WHERE l.${column} IN ${params.add(ids)})`;
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
