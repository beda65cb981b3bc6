import { Viewer } from '@dam/access';
import { exactValueToken, exceedsExactToken } from '@dam/core';
import { AssetFilter, AttributeCondition, TimeBound } from '../ports/asset-filter';
import { VisibleLevelSets } from '../rules/asset-visibility';
import { KeywordPlan, keywordSql, PER_TOKEN, TOKENS } from './keyword.sql';
import { SqlParams } from './sql-params';

/**
 * The typed AssetFilter compiled to SQL conditions on the `assets` alias `a`, and the SQL forms of the
 * asset rules (visibility, approval state) beside the in-memory ones in ../rules, whose spec checks that
 * both agree. Nothing here leaves the assets area: callers hand in an AssetFilter. Words: keyword.sql.ts.
 */

/** A filter compiled to SQL: conditions on the `assets` alias `a` (ANDed) and their named parameters. */
export interface CompiledFilter {
  where: string[];
  params: Record<string, unknown>;
  /** No condition but visibility and `submitted`: a page in id order reads the primary key in order. */
  everyAsset?: boolean;
  /** About what share of the library the filter's visibility keeps (from the tallies); 1 when unknown. */
  visibleShare?: number;
  /** The filter is one word (`singleWord`): its pages may walk the word's token rows (word-walk.ts). */
  word?: WordFilter;
}

/**
 * A filter of one word apart (word-walk.ts): the word and the SQL of its parameters (`tokenParam`,
 * `attributesParam`: the searched attributes), and the filter's other conditions on `a`, all parameters
 * in `params`.
 */
export interface WordFilter {
  token: string;
  tokenParam: string;
  attributesParam: string;
  others: string[];
  params: Record<string, unknown>;
}

/** The filter compiled (filterConditions says what the optional arguments do). */
export function compileFilter(
  filter: InternalFilter,
  probeVisibility?: boolean,
  keywordPlan?: KeywordPlan,
  levelSets?: VisibleLevelSets,
): CompiledFilter {
  const params = new SqlParams();
  const where = filterConditions(filter, params, probeVisibility, keywordPlan, levelSets);
  return { where, params: params.values };
}

/** Conditions only the assets area itself asks for (never part of the AssetFilter port). */
export interface InternalFilter extends AssetFilter {
  /** Assets the viewer may approve: approve on every one of their levels (the approval queues). */
  approvableBy?: Viewer;
}

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
  const digests = filter.contentSha256;
  if (digests !== undefined && digests.length === 1)
    where.push(`a.content_sha256 = ${params.add(digests[0])}`);
  else if (digests !== undefined) where.push(`a.content_sha256 IN ${params.add(digests)}`);
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
    filter.contentSha256 !== undefined ||
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
