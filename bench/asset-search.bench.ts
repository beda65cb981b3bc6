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
import { withQueryDeadline } from '@dam/database';
import { AssetTalliesRepository } from '../libs/assets/src/queries/asset-tallies.repository';
import { explain, serverSettings } from './asset-search-explain';
import { fmt, percentile, SERVER_URL, withMysqlBenchApp } from './mysql-bench-app';
import { AttributeRole, REGIONS, seed, SeedPlan, WORDS } from './asset-search-seed';
import { commonWordScenarios } from './asset-search-words';

const WARM_UP = 5;
/** `--runs N`: requests measured per row (after the warm-up). */
const RUNS = process.argv.includes('--runs') ? Number(process.argv[process.argv.indexOf('--runs') + 1]) : 50;
const LEVELS = 20;
const TOP_CATEGORIES = 20;
const CHILD_CATEGORIES = 9;

async function main(): Promise<void> {
  const keep = process.argv.includes('--keep');
  const sizeArg = process.argv.indexOf('--assets');
  const reuseArg = process.argv.indexOf('--reuse');
  const databaseArg = process.argv.indexOf('--database');
  // `--database <name>`: seed into (or, when already seeded, measure again on) a database of that name, kept.
  const named = databaseArg > 0 ? process.argv[databaseArg + 1] : undefined;
  if (named !== undefined) await createIfMissing(named);
  const reuse = reuseArg > 0 ? process.argv[reuseArg + 1] : named;
  await withMysqlBenchApp(
    keep || named !== undefined,
    async ({ app, base, token, database }) => {
      const call = api(base, token);
      const seedLog: string[] = [];
      const started = performance.now();
      const fresh = reuse === undefined || !(await hasPlan(app.get(DataSource)));
      const seeded = fresh
        ? await seedLibrary(
            call,
            base,
            app.get(DataSource),
            database,
            sizeArg > 0 ? Number(process.argv[sizeArg + 1]) : 1_000_000,
            seedLog,
          )
        : await readSeeded(app.get(DataSource));
      if (fresh) {
        // LOAD DATA bypasses the writes that keep asset_tallies: recount them as the rebuild job does.
        const tallyStarted = performance.now();
        // As the rebuild job runs it: a statement over a million assets takes longer than a request's deadline.
        const rows = await withQueryDeadline(30 * 60_000, () => app.get(AssetTalliesRepository).rebuild());
        // As the migration does after filling assets.level_set_id: the grown rows split their pages.
        await withQueryDeadline(30 * 60_000, () => app.get(DataSource).query('OPTIMIZE TABLE assets'));
        const line = `asset_tallies (${rows} rows): ${((performance.now() - tallyStarted) / 1000).toFixed(1)} s`;
        seedLog.push(line);
        console.log(line);
      }
      const seedSeconds = (performance.now() - started) / 1000;
      await measure(app, base, token, seeded, fresh ? { seedLog, seedSeconds } : undefined);
    },
    reuse,
  );
}

export interface Seeded {
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

async function createIfMissing(database: string): Promise<void> {
  const admin = await createConnection(SERVER_URL);
  await admin.query(
    `CREATE DATABASE IF NOT EXISTS \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
  );
  await admin.end();
}

async function hasPlan(dataSource: DataSource): Promise<boolean> {
  const rows: unknown[] = await dataSource.query(
    "SELECT 1 FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = 'bench_plan'",
  );
  return rows.length > 0;
}

export async function readSeeded(dataSource: DataSource): Promise<Seeded> {
  const rows: Array<{ plan: string }> = await dataSource.query('SELECT plan FROM bench_plan');
  return JSON.parse(rows[0].plan) as Seeded;
}

export async function measure(
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
  const dateAdded = await systemAttributeId(app, 'dateAdded');
  const broad = `descriptiveCategoryForm.categoryIds=${plan.categoryIds[0]}&includeImplicitCategoryMembers=true`;
  if (!process.argv.includes('--before') && !process.argv.includes('--words')) {
    scenarios.push(
      ['sorted by date added, newest first', `sortAttributeId=${dateAdded}&sortDescending=true`],
      ['keyword search sorted by date added', `keywords=${keyword}&sortAttributeId=${dateAdded}`],
      ['keyword search sorted by title', `keywords=${keyword}&sortAttributeId=${plan.attributes.title.id}`],
      [
        'attribute filter with sort, page 50 by cursor',
        await cursorOf(
          base,
          token,
          `attribute_${a.region.id}=${encodeURIComponent(REGIONS[7])}&sortAttributeId=${a.rank.id}&sortDescending=true&page=49`,
        ),
      ],
      [
        'deep page by cursor (page 501 of 100), no filter',
        await cursorOf(base, token, 'page=500&pageSize=100'),
      ],
      ['deep page by cursor, count=false', await cursorOf(base, token, 'page=500&pageSize=100&count=false')],
      ['three facets on a broad query (category with descendants)', `${broad}&facets=${FACETS}`],
      ['three facets, no filter', `facets=${FACETS}`],
    );
  }
  const words = commonWordScenarios(plan.attributes.title.id, plan.attributes.region.id, FACETS);
  if (process.argv.includes('--words')) scenarios.length = 0;
  scenarios.push(...words);
  // Every request again as the user who may view a quarter of the levels (`userId` acts as them).
  const asViewer = (query: string) => `${query}&userId=${viewer.id}`;
  const all: Array<[string, string]> = scenarios.flatMap(([label, query]): Array<[string, string]> =>
    query.includes('userId=')
      ? [[label, query]]
      : [
          [label, query],
          [`${label} (1/4 viewer)`, asViewer(query)],
        ],
  );
  const rows: string[] = [];
  const plans: string[] = [];
  // `--only <regex>`: just the rows whose label matches (to measure a few again).
  const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : '';
  for (const [label, query] of all.filter(([name]) => new RegExp(only).test(name))) {
    // A cursor belongs to its search: the viewer's variant takes the viewer's own.
    const resolved =
      query.includes('cursor=') && query.includes('userId=')
        ? await viewerCursor(base, token, query).catch(() => undefined)
        : query;
    // The viewer's result may end before that page: no cursor, no row.
    if (resolved === undefined) continue;
    // `--runs 0`: plans only.
    const { times, total } =
      RUNS > 0 ? await time(`${base}/rest/asset-search?${resolved}`, token) : { times: [0], total: '' };
    const load = os.loadavg()[0].toFixed(1);
    rows.push(
      `| ${label} | \`${shown(resolved)}\` | ${total} | ${fmt(percentile(times, 50))} | ${fmt(percentile(times, 95))} | ${load} |`,
    );
    console.log(rows[rows.length - 1]);
    if (!resolved.includes('cursor=') && !resolved.includes('facets='))
      plans.push(`### ${label}\n\n${await explain(app, resolved, viewer.id)}`);
  }
  const report = renderReport(rows, plans, seeding, assetCount, await serverSettings(app));
  fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
  const outArg = process.argv.indexOf('--out');
  fs.writeFileSync(
    outArg > 0 ? process.argv[outArg + 1] : path.join(__dirname, 'results', 'asset-search.md'),
    report,
  );
  console.log(report);
}

const FACETS = 'categories,accessLevels,dateAdded:year';

/** The query of the rel="next" link of `query`'s page (its `cursor`). */
async function cursorOf(base: string, token: string, query: string): Promise<string> {
  const response = await fetch(`${base}/rest/asset-search?${query}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  await response.arrayBuffer();
  const next = /<([^>]+)>; rel="next"/.exec(response.headers.get('link') ?? '');
  if (next === null) throw new Error(`${query}: no rel="next"`);
  return new URL(next[1]).search.slice(1);
}

/** The same deep page as the viewer: the cursor of their own page 500. */
async function viewerCursor(base: string, token: string, query: string): Promise<string> {
  const params = new URLSearchParams(query);
  params.delete('cursor');
  params.set('page', String(Number(params.get('page')) - 1));
  return cursorOf(base, token, params.toString());
}

/** The query as the table shows it: decoded, a cursor cut short. */
function shown(query: string): string {
  return decodeURIComponent(query).replace(/cursor=([^&]{12})[^&]*/, 'cursor=$1…');
}

async function systemAttributeId(app: INestApplication, name: string): Promise<number> {
  const rows: Array<{ id: Id }> = await app
    .get(DataSource)
    .query('SELECT id FROM attributes WHERE static_name = ?', [name]);
  return Number(rows[0].id);
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

async function time(url: string, token: string): Promise<{ times: number[]; total: string }> {
  const times: number[] = [];
  let total = '';
  for (let i = 0; i < WARM_UP + RUNS; i++) {
    const started = performance.now();
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    const body = await response.text();
    const elapsed = performance.now() - started;
    if (i >= WARM_UP) times.push(elapsed);
    // A failure (503 past DAM_DATABASE_TIMEOUT_MS) is timed and shown, not fatal to the run.
    total = response.ok
      ? (response.headers.get('x-total-count') ?? '(count=false)')
      : `${response.status}: ${body}`;
  }
  return { times, total };
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
      'Each request runs the total for X-Total-Count (a COUNT, or a sum of tallies when the only conditions are ' +
      'visibility and categories or levels; with facets, one pass over the matches counts both), the page of ids, ' +
      'and the batch loads of the page (values, links, users).',
    '',
    '| request | query | X-Total-Count | p50 | p95 | load (1 min) |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    '## Query plans (EXPLAIN of the count and page queries)',
    '',
    ...plans,
  ].join('\n');
}

if (require.main === module)
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
