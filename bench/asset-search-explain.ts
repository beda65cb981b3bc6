/**
 * The asset-search benchmark's EXPLAIN of the statements the service runs for a query, and the database
 * settings its report names (bench/asset-search.bench.ts and asset-search-sqlite.bench.ts).
 */
import { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { QueryParams } from '@dam/http';
import { LanguageService } from '@dam/i18n';
import { PermissionsService, UsersService, Viewer } from '@dam/access';
import { AttributesCatalog } from '@dam/attributes';
import { parseSearchCriteria, parseSearchOrder, SearchPlanner } from '@dam/search';
// The SQL is private to the assets lib; the benchmark reaches in (by path) only to EXPLAIN it.
import { compileFilter } from '../libs/assets/src/queries/asset-filter.sql';
import { KeywordPlanRepository } from '../libs/assets/src/queries/keyword-plan.repository';
import { pageQuery, ResolvedSort, sortWalkQuery } from '../libs/assets/src/queries/page.sql';
import { assetsWhere } from '../libs/assets/src/queries/query-sources';
import { isTalliedScope, TalliedCounts } from '../libs/assets/src/queries/tallied-counts.service';
import { AssetTalliesRepository } from '../libs/assets/src/queries/asset-tallies.repository';

/**
 * EXPLAIN of the count and the page query the service runs for `query`: as the application user (who
 * sees every asset, so no visibility condition), or as the viewer when the query names `userId`.
 */
export async function explain(app: INestApplication, query: string, viewerId: number): Promise<string> {
  const params = QueryParams.fromQueryString(query);
  const planner = app.get(SearchPlanner);
  const attributes = await app.get(AttributesCatalog).all(app.get(LanguageService).defaultLanguage);
  let visibleTo: Viewer | undefined;
  if (params.single('userId') !== undefined) {
    const actor = { id: viewerId, username: 'bench-viewer', isAdmin: false, isApplication: false };
    visibleTo = { actor, grants: await app.get(PermissionsService).grantsFor(actor) };
  }
  const filter = await planner.plan(parseSearchCriteria(params), attributes, visibleTo);
  // As AssetQueries compiles it: with its plan of the keyword ANDs and, for a viewer who sees only
  // some levels, the sets of levels they see. The count materialises visibility where nothing narrows;
  // the page probes it per row.
  const keywordPlan = await app.get(KeywordPlanRepository).plan(filter);
  const levelSets =
    visibleTo === undefined
      ? undefined
      : app.get(TalliedCounts).levelSetsOf(filter, await app.get(AssetTalliesRepository).tallies());
  const search = compileFilter(filter, undefined, keywordPlan, levelSets);
  const paged = compileFilter(filter, true, keywordPlan, levelSets);
  // No condition but visibility, categories or levels: the service reads the total from the tallies.
  const tallied = isTalliedScope(filter);
  const order = parseSearchOrder(params);
  const page = Number(params.single('page') ?? 0);
  const size = Number(params.single('pageSize') ?? 100);
  const assetSort = planner.sort(order, attributes);
  // As AssetQueries resolves it: the "added by" sort needs the user ids in username order.
  const sort: ResolvedSort =
    assetSort.kind === 'addedBy'
      ? { kind: 'addedBy', userIds: await app.get(UsersService).idsInUsernameOrder() }
      : assetSort;
  const dataSource = app.get(DataSource);
  const out: string[] = [];
  // As AssetCountRepository.count selects it.
  const count = assetsWhere(search, dataSource.manager).select('COUNT(*)', 'total');
  const general = pageQuery(dataSource, paged, sort, order.descending, page * size, size + 1);
  // A sort by value or uploader counts in the page's own statement (when no walk is taken).
  const counting = sort.kind === 'value' || sort.kind === 'addedBy';
  if (counting) general.addSelect('COUNT(*) OVER ()', 'total');
  const queries: Array<[string, { getQueryAndParameters(): [string, unknown[]] }]> = [
    [
      tallied
        ? 'count (not run: the total comes from the tallies)'
        : counting
          ? 'count (run only where the sort-index walk is taken)'
          : 'count',
      count,
    ],
    [counting ? 'page (general query, counting as it sorts)' : 'page (general query)', general],
  ];
  if (sort.kind === 'value' && dataSource.options.type === 'mysql')
    queries.push(
      sort.numeric
        ? [
            'page (sort-index walk, what runs when it can fill the page)',
            sortWalkQuery(dataSource, paged, {
              attributeId: sort.attributeId,
              descending: order.descending,
              offset: page * size,
              limit: size + 1,
            }),
          ]
        : [
            'candidates (walk of the text copies, where it may pay; the page is then sorted among them)',
            sortWalkQuery(dataSource, paged, {
              attributeId: sort.attributeId,
              descending: order.descending,
              offset: 0,
              limit: (page + 1) * size + 1,
              table: 'asset_sort_texts',
            }),
          ],
    );
  for (const [name, builder] of queries) {
    const [sql, values] = builder.getQueryAndParameters();
    // A listed set of ids (a keyword AND read beforehand) is shown by its size.
    const text = sql.replace(/(\?, ){10,}\?/g, (list) => `?, … (${list.split('?').length - 1} ids)`);
    if (dataSource.options.type !== 'mysql') {
      // SQLite: EXPLAIN QUERY PLAN, one row per step.
      const steps: Array<{ id: number; parent: number; detail: string }> = await dataSource.query(
        `EXPLAIN QUERY PLAN ${sql}`,
        values,
      );
      out.push(`${name}:\n\n| id | parent | detail |\n|---|---|---|`);
      for (const step of steps) out.push(`| ${step.id} | ${step.parent} | ${step.detail} |`);
      out.push('');
      continue;
    }
    const rows: Array<Record<string, unknown>> = await dataSource.query(`EXPLAIN ${sql}`, values);
    out.push(
      `${name}: \`${text}\`\n\n| id | select_type | table | type | key | rows | Extra |\n|---|---|---|---|---|---|---|`,
    );
    for (const row of rows)
      out.push(
        `| ${row.id} | ${row.select_type} | ${row.table} | ${row.type} | ${row.key ?? ''} | ${row.rows} | ${row.Extra ?? ''} |`,
      );
    out.push('');
  }
  return out.join('\n');
}

/** The server settings that decide whether the working set is in memory. */
export async function serverSettings(app: INestApplication): Promise<string> {
  if (app.get(DataSource).options.type !== 'mysql') {
    const [version]: Array<{ v: string }> = await app.get(DataSource).query('SELECT sqlite_version() AS v');
    return `SQLite ${version.v} (better-sqlite3, WAL, the service's default settings)`;
  }
  const [row]: Array<{ version: string; pool: number | string }> = await app
    .get(DataSource)
    .query('SELECT VERSION() AS version, @@innodb_buffer_pool_size AS pool');
  return `MariaDB/MySQL ${row.version} from DAM_TEST_MYSQL_URL, innodb_buffer_pool_size ${(Number(row.pool) / 2 ** 20).toFixed(0)} MiB`;
}
