/**
 * Times GET /rest/asset-search over 1,000,000 assets with 10 attribute values each on MySQL/MariaDB,
 * over HTTP: a keyword search, an attribute filter with sort, a category filter and a deep page
 * (page 500 of 100), as the application user and, for the keyword search, as a user who may view a
 * quarter of the access levels. Prints p50/p95 and the EXPLAIN of the SQL behind each request.
 *
 *   npx ts-node -r tsconfig-paths/register --transpile-only bench/asset-search.bench.ts [--assets N] [--keep]
 *
 * DAM_TEST_MYSQL_URL (default mysql://dam_test:dam_test@127.0.0.1:3306) names the server; a fresh
 * database `dam_bench_<time>` is created, migrated by booting the app, seeded with LOAD DATA (see
 * asset-search-seed.ts) and dropped at the end (`--keep` keeps it). Results: bench/results/asset-search.md.
 */
import { INestApplication } from '@nestjs/common';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createConnection } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { LanguageService, QueryParams } from '@dam/platform';
import { PermissionsService, UsersService, Viewer } from '@dam/access';
import { AttributesCatalog } from '@dam/attributes';
import { parseSearchCriteria, parseSearchOrder, SearchPlanner } from '@dam/search';
// The SQL is private to the assets lib; the benchmark reaches in (by path) only to EXPLAIN it.
import {
  AssetQueriesRepository,
  compileFilter,
  ResolvedSort,
} from '../libs/assets/src/queries/asset-queries.repository';
import { fmt, percentile, SERVER_URL, withMysqlBenchApp } from './mysql-bench-app';
import { AttributeRole, REGIONS, seed, SeedPlan, WORDS } from './asset-search-seed';

const WARM_UP = 5;
const RUNS = 50;
const LEVELS = 20;
const TOP_CATEGORIES = 20;
const CHILD_CATEGORIES = 9;

async function main(): Promise<void> {
  const keep = process.argv.includes('--keep');
  const sizeArg = process.argv.indexOf('--assets');
  const reuseArg = process.argv.indexOf('--reuse');
  const reuse = reuseArg > 0 ? process.argv[reuseArg + 1] : undefined;
  await withMysqlBenchApp(
    keep,
    async ({ app, base, token, database }) => {
      const call = api(base, token);
      const seedLog: string[] = [];
      const started = performance.now();
      const seeded =
        reuse === undefined
          ? await seedLibrary(
              call,
              base,
              app.get(DataSource),
              database,
              sizeArg > 0 ? Number(process.argv[sizeArg + 1]) : 1_000_000,
              seedLog,
            )
          : await readSeeded(app.get(DataSource));
      const seedSeconds = (performance.now() - started) / 1000;
      await measure(app, base, token, seeded, reuse === undefined ? { seedLog, seedSeconds } : undefined);
    },
    reuse,
  );
}

interface Seeded {
  plan: SeedPlan;
  viewerId: number;
}

/** Seeds the library and records the plan in `bench_plan`, so that `--reuse <database>` can measure again. */
async function seedLibrary(
  call: Call,
  base: string,
  dataSource: DataSource,
  database: string,
  assetCount: number,
  seedLog: string[],
): Promise<Seeded> {
  const plan = await planLibrary(call, dataSource, assetCount);
  const viewer = await call('POST', `/rest/users?username=bench-viewer-${Date.now()}`);
  const group = await call('POST', '/rest/groups', {
    name: 'bench viewers',
    accessLevelPermissions: plan.levelIds.slice(0, LEVELS / 4).map((id) => ({
      accessLevelUrl: `${base}/rest/access-levels/${id}`,
      permissions: ['view'],
    })),
  });
  await call('PUT', `/rest/users/${viewer.id}`, { groupIds: [group.id] });
  const loader = await createConnection(`${SERVER_URL}/${database}`);
  await seed(loader, plan, (line) => {
    seedLog.push(line);
    console.log(line);
  });
  await loader.end();
  const seeded: Seeded = { plan, viewerId: viewer.id };
  await dataSource.query('CREATE TABLE bench_plan (plan TEXT NOT NULL)');
  await dataSource.query('INSERT INTO bench_plan (plan) VALUES (?)', [JSON.stringify(seeded)]);
  return seeded;
}

async function readSeeded(dataSource: DataSource): Promise<Seeded> {
  const rows: Array<{ plan: string }> = await dataSource.query('SELECT plan FROM bench_plan');
  return JSON.parse(rows[0].plan) as Seeded;
}

async function measure(
  app: INestApplication,
  base: string,
  token: string,
  { plan, viewerId }: Seeded,
  seeding: { seedLog: string[]; seedSeconds: number } | undefined,
): Promise<void> {
  const viewer = { id: viewerId };
  const assetCount = plan.assets;
  const keyword = WORDS[99]; // rank 100 of 4,096 on a 1/r skew: about 1.5% of assets
  const category = plan.categoryIds[TOP_CATEGORIES + 3];
  const a = plan.attributes;
  const scenarios: Array<[string, string]> = [
    ['keyword search', `keywords=${keyword}`],
    ['keyword search, two words AND, prefix', `keywords=${keyword}+${WORDS[4].slice(0, 4)}*`],
    ['keyword search as a user viewing 1/4 of the levels', `keywords=${keyword}&userId=${viewer.id}`],
    [
      'attribute filter with sort',
      `attribute_${a.region.id}=${encodeURIComponent(REGIONS[7])}&sortAttributeId=${a.rank.id}&sortDescending=true`,
    ],
    [
      'attribute filter with sort, ascending',
      `attribute_${a.region.id}=${encodeURIComponent(REGIONS[7])}&sortAttributeId=${a.rank.id}`,
    ],
    [
      'attribute filter with sort, page 50 (past the sort-index walk)',
      `attribute_${a.region.id}=${encodeURIComponent(REGIONS[7])}&sortAttributeId=${a.rank.id}&sortDescending=true&page=50`,
    ],
    ['category filter', `descriptiveCategoryForm.categoryIds=${category}`],
    [
      'category filter with descendants',
      `descriptiveCategoryForm.categoryIds=${plan.categoryIds[0]}&includeImplicitCategoryMembers=true`,
    ],
    ['deep page (page 500 of 100), no filter', 'page=500&pageSize=100'],
  ];
  const rows: string[] = [];
  const plans: string[] = [];
  for (const [label, query] of scenarios) {
    const { times, total } = await time(`${base}/rest/asset-search?${query}`, token);
    rows.push(
      `| ${label} | \`${decodeURIComponent(query)}\` | ${total} | ${fmt(percentile(times, 50))} | ${fmt(percentile(times, 95))} |`,
    );
    console.log(rows[rows.length - 1]);
    plans.push(`### ${label}\n\n${await explain(app, query, viewer.id)}`);
  }
  const report = renderReport(rows, plans, seeding, assetCount, await serverSettings(app));
  fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
  fs.writeFileSync(path.join(__dirname, 'results', 'asset-search.md'), report);
  console.log(report);
}

type Call = (method: string, url: string, body?: unknown) => Promise<{ id: number }>;

function api(base: string, token: string): Call {
  return async (method, url, body) => {
    const response = await fetch(base + url, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { id: number };
  };
}

/** Levels, categories and custom attributes through the API (they are few); assets come by LOAD DATA. */
async function planLibrary(call: Call, dataSource: DataSource, assets: number): Promise<SeedPlan> {
  const levelIds: number[] = [];
  for (let i = 0; i < LEVELS; i++)
    levelIds.push((await call('POST', '/rest/access-levels', { name: `Level ${i + 1}` })).id);
  const categoryIds: number[] = [];
  for (let i = 0; i < TOP_CATEGORIES; i++)
    categoryIds.push((await call('POST', '/rest/categories', { name: `Category ${i + 1}` })).id);
  for (const parent of categoryIds.slice(0, TOP_CATEGORIES)) {
    for (let j = 0; j < CHILD_CATEGORIES; j++) {
      const response = await call('POST', '/rest/categories', {
        name: `Sub ${parent}.${j + 1}`,
        parent: `/rest/categories/${parent}`,
      });
      categoryIds.push(response.id);
    }
  }
  const custom = async (label: string, typeId: number): Promise<{ id: number; typeId: number }> => ({
    id: (await call('POST', '/rest/attributes', { label, typeId, isKeywordSearchable: typeId === 1 })).id,
    typeId,
  });
  const system: Array<{ id: number | string; static_name: string; type_id: number | string }> =
    await dataSource.query('SELECT id, static_name, type_id FROM attributes WHERE static_name IS NOT NULL');
  const byName = (name: string) => {
    const row = system.find((candidate) => candidate.static_name === name);
    if (row === undefined) throw new Error(`no system attribute ${name}`);
    return { id: Number(row.id), typeId: Number(row.type_id) };
  };
  const attributes: Record<AttributeRole, { id: number; typeId: number }> = {
    title: byName('title'),
    description: byName('description'),
    keywords: byName('keywords'),
    filename: byName('originalFilename'),
    fileSize: byName('fileSize'),
    colour: await custom('Colour', 6),
    region: await custom('Region', 6),
    rank: await custom('Rank', 8),
    shot: await custom('Shot on', 3),
    notes: await custom('Notes', 1),
  };
  return { assets, levelIds, categoryIds, attributes };
}

/**
 * EXPLAIN of the count and the page query the service runs for `query`: as the application user (who
 * sees every asset, so no visibility condition), or as the viewer when the query names `userId`.
 */
async function explain(app: INestApplication, query: string, viewerId: number): Promise<string> {
  const params = QueryParams.fromQueryString(query);
  const planner = app.get(SearchPlanner);
  const repository = app.get(AssetQueriesRepository);
  const attributes = await app.get(AttributesCatalog).all(app.get(LanguageService).defaultLanguage);
  let visibleTo: Viewer | undefined;
  if (params.single('userId') !== undefined) {
    const actor = { id: viewerId, username: 'bench-viewer', isAdmin: false, isApplication: false };
    visibleTo = { actor, grants: await app.get(PermissionsService).grantsFor(actor) };
  }
  const search = compileFilter(await planner.plan(parseSearchCriteria(params), attributes, visibleTo));
  const order = parseSearchOrder(params);
  const page = Number(params.single('page') ?? 0);
  const size = Number(params.single('pageSize') ?? 100);
  const assetSort = planner.sort(order, attributes);
  // As AssetQueriesService resolves it: the "added by" sort needs the user ids in username order.
  const sort: ResolvedSort =
    assetSort.kind === 'addedBy'
      ? { kind: 'addedBy', userIds: await app.get(UsersService).idsInUsernameOrder() }
      : assetSort;
  const dataSource = app.get(DataSource);
  const out: string[] = [];
  // `base` is private (count() runs it with this select); element access keeps the EXPLAIN on the real SQL.
  const count = repository['base'](search).select('COUNT(*)', 'total');
  const pageQuery = repository.pageQuery(search, sort, order.descending, page * size, size);
  const queries: Array<[string, { getQueryAndParameters(): [string, unknown[]] }]> = [
    ['count', count],
    ['page (general query)', pageQuery],
  ];
  if (sort.kind === 'value' && sort.numeric)
    queries.push([
      'page (sort-index walk, what runs when it can fill the page)',
      repository.sortWalkQuery(search, sort.attributeId, order.descending, page * size, size),
    ]);
  for (const [name, builder] of queries) {
    const [text, values] = builder.getQueryAndParameters();
    const rows: Array<Record<string, unknown>> = await dataSource.query(`EXPLAIN ${text}`, values);
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

async function time(url: string, token: string): Promise<{ times: number[]; total: string }> {
  const times: number[] = [];
  let total = '';
  for (let i = 0; i < WARM_UP + RUNS; i++) {
    const started = performance.now();
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    await response.json();
    const elapsed = performance.now() - started;
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
    if (i >= WARM_UP) times.push(elapsed);
    total = response.headers.get('x-total-count') ?? '';
  }
  return { times, total };
}

/** The server settings that decide whether the working set is in memory. */
async function serverSettings(app: INestApplication): Promise<string> {
  const [row]: Array<{ version: string; pool: Id }> = await app
    .get(DataSource)
    .query('SELECT VERSION() AS version, @@innodb_buffer_pool_size AS pool');
  return `MariaDB/MySQL ${row.version} from DAM_TEST_MYSQL_URL, innodb_buffer_pool_size ${(Number(row.pool) / 2 ** 30).toFixed(1)} GiB`;
}

type Id = number | string;

function renderReport(
  rows: string[],
  plans: string[],
  seeding: { seedLog: string[]; seedSeconds: number } | undefined,
  assets: number,
  server: string,
): string {
  const seeded =
    seeding === undefined
      ? ['Seeded by an earlier run (`--keep`) and measured again with `--reuse <database>`.']
      : [`Seeded in ${seeding.seedSeconds.toFixed(0)} s:`, '', ...seeding.seedLog.map((line) => `- ${line}`)];
  return [
    '# asset-search benchmark',
    '',
    '```',
    `npx ts-node -r tsconfig-paths/register --transpile-only bench/asset-search.bench.ts${assets === 1_000_000 ? '' : ` --assets ${assets}`}`,
    '```',
    '',
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), ` +
      `Node ${process.version}, ${server}.`,
    '',
    `Data: ${assets.toLocaleString('en')} assets with 10 attribute values each (title 3 words, description 4, keywords 2, ` +
      `notes 1 from 4,096 pseudo-words on a 1/r skew; filename, file size, colour (12 list values), region (50), rank 0-999, ` +
      `shot date), one of ${LEVELS} access levels and one of ${TOP_CATEGORIES * (1 + CHILD_CATEGORIES)} categories each; 3% unsubmitted, ` +
      '2% awaiting approval.',
    ...seeded,
    '',
    `${RUNS} sequential requests over HTTP after ${WARM_UP} warm-up requests; client and server share the machine. ` +
      'Each request runs the COUNT for X-Total-Count, the page of ids, and the batch loads of the page (values, links, users).',
    '',
    '| request | query | X-Total-Count | p50 | p95 |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    '## Query plans (EXPLAIN of the count and page queries)',
    '',
    ...plans,
  ].join('\n');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
