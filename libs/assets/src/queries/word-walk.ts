import { DataSource, SelectQueryBuilder } from 'typeorm';
import { AssetFilter } from '../ports/asset-filter';
import { AssetPosition } from '../ports/asset-queries.port';
import { VisibleLevelSets } from '../rules/asset-visibility';
import { CompiledFilter, filterConditions, WordFilter } from './asset-filter.sql';
import { TOKENS } from './keyword.sql';
import { SqlParams } from './sql-params';

/**
 * A search for one word (`singleWord`: no condition but visibility and `submitted`) read along the word's
 * own stretch of the token index, `asset_search_tokens (token, asset_id, attribute_id)`, whose rows are
 * in asset id order: the first page in id order reads the page's rows and stops, where the semi-join
 * (`a.id IN (SELECT ...)`) made MariaDB materialise every row of the word first (the commonest word at
 * 1M: 1.2 million rows for a page of 100, over 5 s on a stock buffer pool).
 */

/**
 * The filter of `singleWord` apart: its word and its other conditions, visibility as a probe per row;
 * undefined when no attribute is searched (nothing matches: the general query says so at once).
 */
export function compileWord(
  filter: AssetFilter,
  token: string,
  levelSets?: VisibleLevelSets,
): WordFilter | undefined {
  const attributeIds = filter.keywords?.attributeIds ?? [];
  if (attributeIds.length === 0) return undefined;
  const params = new SqlParams();
  const tokenParam = params.add(token);
  const attributesParam = params.add([...attributeIds]);
  const others = filterConditions({ ...filter, keywords: undefined }, params, true, undefined, levelSets);
  return { token, tokenParam, attributesParam, others, params: params.values };
}

/**
 * The word as a test of one asset (`a`): a look-up of its row in the word's stretch, for a walk of
 * another index that probes each asset it meets (a sort copy in order). Written as a scalar subquery so
 * that MariaDB does not turn it into a semi-join, which would read the word's every row first.
 */
export function wordProbeSql(word: Pick<WordFilter, 'tokenParam' | 'attributesParam'>): string {
  return (
    `(SELECT COUNT(*) FROM ${TOKENS} wp WHERE wp.token = ${word.tokenParam} AND wp.asset_id = a.id ` +
    `AND wp.attribute_id IN ${word.attributesParam}) > 0`
  );
}

/** The word's filter as a filter of `a` whose word is a probe per asset (wordProbeSql). */
export function probedWord(word: WordFilter): CompiledFilter {
  return { where: [...word.others, wordProbeSql(word)], params: word.params };
}

/**
 * One page in id order along the word's stretch of the token index: each asset's rows there are
 * adjacent (grouped as read, no sort), its other conditions probed on its row, stopping after `limit`.
 * MySQL: STRAIGHT_JOIN and the primary key keep the token index first and in order.
 */
export function wordWalkQuery(
  dataSource: DataSource,
  word: WordFilter,
  descending: boolean,
  offset: number,
  limit: number,
  after?: AssetPosition,
): SelectQueryBuilder<object> {
  const mysql = dataSource.options.type === 'mysql';
  const direction = descending ? 'DESC' : 'ASC';
  const query = dataSource
    .createQueryBuilder()
    .select(mysql ? 'STRAIGHT_JOIN t.asset_id' : 't.asset_id', 'id')
    .from(TOKENS, 't')
    .innerJoin('assets', 'a', 'a.id = t.asset_id')
    .where(`t.token = ${word.tokenParam}`)
    .andWhere(`t.attribute_id IN ${word.attributesParam}`);
  if (mysql) query.useIndex('PRIMARY');
  for (const condition of word.others) query.andWhere(condition);
  if (after !== undefined)
    query.andWhere(`t.asset_id ${descending ? '<' : '>'} :wordAfterId`, { wordAfterId: after.id });
  return query
    .setParameters(word.params)
    .groupBy('t.asset_id')
    .orderBy('t.asset_id', direction)
    .offset(offset)
    .limit(limit);
}
