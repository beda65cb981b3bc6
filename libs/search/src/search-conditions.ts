import { SqlFragment } from '@dam/access';
import { AttributeDefinition, AttributeType, SystemAttribute } from '@dam/attributes';
import { parseValue } from '@dam/assets';
import { InvalidInput, exactValueToken, exceedsExactToken } from '@dam/platform';
import { KeywordQuery, parseKeywordQuery } from './keyword-query';
import { AttributeFilter, SearchCriteria, TimeBound } from './search-criteria';

/** What the criteria refer to, looked up in the database by the service. */
export interface SearchContext {
  attributes: ReadonlyMap<number, AttributeDefinition>;
  /** Keyword-searchable attributes. */
  keywordAttributeIds: number[];
  filenameAttributeId?: number;
  /** Category and access level ids to match, descendants included when asked for. */
  categoryIds: number[];
  accessLevelIds: number[];
  assetType?: { id: number; name: string };
}

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

const TOKENS = 'asset_search_tokens';
const WORD_TYPES: ReadonlySet<number> = new Set([
  AttributeType.Text,
  AttributeType.TextArea,
  AttributeType.Keywords,
]);

/**
 * The criteria as SQL conditions on the `assets` alias `a`, to be ANDed. Words go through the token
 * index (`a.id IN (SELECT asset_id FROM asset_search_tokens ...)`, a semi-join both databases drive
 * from the index); links through their own tables' indexes.
 */
export function searchConditions(
  criteria: SearchCriteria,
  context: SearchContext,
  params: SqlParams,
): string[] {
  const where: string[] = [];
  if (criteria.keywords !== undefined)
    where.push(keywordSql(criteria.keywords, context.keywordAttributeIds, params));
  const attributeSql = criteria.attributes.map((filter) => attributeFilterSql(filter, context, params));
  if (attributeSql.length > 0) where.push(`(${attributeSql.join(` ${criteria.attributeConjunction} `)})`);
  if (criteria.assetIds.length > 0) {
    const ranges = criteria.assetIds.map(({ from, to }) =>
      from === to ? `a.id = ${params.add(from)}` : `a.id BETWEEN ${params.add(from)} AND ${params.add(to)}`,
    );
    where.push(`(${ranges.join(' OR ')})`);
  }
  if (context.assetType !== undefined) {
    const { id, name } = context.assetType;
    where.push(
      `(a.asset_type_id = ${params.add(id)} OR (a.asset_type_id IS NULL AND a.type = ${params.add(name)}))`,
    );
  }
  if (criteria.filename !== undefined)
    where.push(filenameSql(criteria.filename, context.filenameAttributeId, params));
  where.push(
    ...timeSql('a.created_at', criteria.dateAdded, params),
    ...timeSql('a.updated_at', criteria.dateModified, params),
  );
  if (criteria.descriptiveCategoryIds.length > 0) {
    where.push(linkSql('asset_categories', 'category_id', context.categoryIds, params));
  }
  if (criteria.permissionCategoryIds.length > 0) {
    where.push(linkSql('asset_access_levels', 'access_level_id', context.accessLevelIds, params));
  }
  if (criteria.parentIds.length > 0)
    where.push(linkSql('asset_parents', 'parent_id', criteria.parentIds, params));
  if (criteria.approvalStatuses.length === 1) {
    const approved =
      `(a.upload_pending = ${params.add(false)} AND NOT EXISTS ` +
      '(SELECT 1 FROM asset_pending_edits pe WHERE pe.asset_id = a.id))';
    where.push(criteria.approvalStatuses[0] === 'full' ? approved : `NOT ${approved}`);
  }
  if (criteria.unsubmitted !== undefined) where.push(`a.submitted = ${params.add(!criteria.unsubmitted)}`);
  return where;
}

/** NOT binds to its operand; OR of plain words becomes one index scan instead of one per word. */
export function keywordSql(query: KeywordQuery, attributeIds: readonly number[], params: SqlParams): string {
  let attributes = '';
  if (attributeIds.length === 1) attributes = `= ${params.add(attributeIds[0])}`;
  else if (attributeIds.length > 1) attributes = `IN ${params.add([...attributeIds])}`;
  const matching = (tokenCondition: string): string =>
    attributeIds.length === 0
      ? '1 = 0'
      : `a.id IN (SELECT t.asset_id FROM ${TOKENS} t WHERE ${tokenCondition} AND t.attribute_id ${attributes})`;
  const tokenCondition = (token: string, prefix: boolean): string =>
    prefix
      ? `(t.token >= ${params.add(token)} AND t.token < ${params.add(successor(token))})`
      : `t.token = ${params.add(token)}`;
  const build = (node: KeywordQuery): string => {
    switch (node.kind) {
      case 'all':
        return '1 = 1';
      case 'term':
        return join(
          'AND',
          node.tokens.map((token, i) =>
            matching(tokenCondition(token, node.prefix && i === node.tokens.length - 1)),
          ),
        );
      case 'not':
        return `NOT (${build(node.item)})`;
      case 'and':
        return join('AND', node.items.map(build));
      case 'or': {
        const single = node.items.every((item) => item.kind === 'term' && item.tokens.length === 1);
        if (!single) return join('OR', node.items.map(build));
        const words = node.items.map((item) =>
          item.kind === 'term' ? tokenCondition(item.tokens[0], item.prefix) : '1 = 0',
        );
        return matching(`(${words.join(' OR ')})`);
      }
    }
  };
  return build(query);
}

function attributeFilterSql(filter: AttributeFilter, context: SearchContext, params: SqlParams): string {
  const attribute = context.attributes.get(filter.attributeId);
  const name = `attribute_${filter.attributeId}`;
  if (attribute === undefined) throw new InvalidInput(`${name} names no attribute`);
  switch (attribute.staticName) {
    case SystemAttribute.DateAdded:
      throw new InvalidInput(
        `${name} (${attribute.label}) is searched with dateAddedLower and dateAddedUpper`,
      );
    case SystemAttribute.DateLastModified:
      throw new InvalidInput(`${name} (${attribute.label}) is searched with dateModLower and dateModUpper`);
    case SystemAttribute.AccessLevels:
      throw new InvalidInput(
        `${name} (${attribute.label}) is searched with permissionCategoryForm.categoryIds`,
      );
    case SystemAttribute.Categories:
      throw new InvalidInput(
        `${name} (${attribute.label}) is searched with descriptiveCategoryForm.categoryIds`,
      );
    case SystemAttribute.AddedBy:
      return `a.added_by_user_id IN (SELECT u.id FROM users u WHERE u.username = ${params.add(filter.value.trim())})`;
  }
  if (WORD_TYPES.has(attribute.typeId)) {
    const query = parseKeywordQuery(filter.value, name);
    return query === undefined ? '1 = 1' : `(${keywordSql(query, [attribute.id], params)})`;
  }
  const parsed = parseValue(attribute.typeId, filter.value);
  if (!parsed.ok) throw new InvalidInput(`${name} (${attribute.label}) must be ${parsed.expected}`);
  const id = params.add(attribute.id);
  let sql = `a.id IN (SELECT t.asset_id FROM ${TOKENS} t WHERE t.token = ${params.add(exactValueToken(parsed.stored))} AND t.attribute_id = ${id})`;
  if (exceedsExactToken(parsed.stored)) {
    sql +=
      ` AND a.id IN (SELECT v.asset_id FROM asset_attribute_values v WHERE v.attribute_id = ${id} ` +
      `AND v.language = '' AND LOWER(v.value) = ${params.add(parsed.stored.toLowerCase())})`;
  }
  return `(${sql})`;
}

/** Case-insensitive; `*` stands for any characters, everything else is literal. */
function filenameSql(pattern: string, attributeId: number | undefined, params: SqlParams): string {
  if (attributeId === undefined) return '1 = 0';
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
function successor(prefix: string): string {
  const chars = [...prefix];
  const last = chars.pop() ?? '';
  return chars.join('') + String.fromCodePoint((last.codePointAt(0) ?? 0) + 1);
}

export type { SqlFragment };
