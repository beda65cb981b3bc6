/**
 * Issue 31's numbers, in one run:
 *
 * 1. The audit entry's cost on `PUT /rest/assets/{id}` (a title change) on the DAM_TEST_MATRIX matrix
 *    (SQLite + fs by default): two services from the build side by side, one with the audit log, one
 *    with DAM_AUDIT_ENABLED=false; rounds alternate which goes first; PUTs per second from
 *    BENCH_CONNECTIONS concurrent loops, each on its own asset.
 * 2. At scale on MariaDB (always): `audit_entries` seeded with SQL (BENCH_AUDIT_ROWS, 10M; 10 entries per
 *    asset id over 1M ids) in a database of its own and swapped in (seedAudit), and `trashed_assets`
 *    (BENCH_TRASH_ROWS, 1M, with the trash's tally); the latency of `GET /rest/admin/audit?assetId=`,
 *    `?userId=`, the unfiltered page, and `GET /rest/admin/trash`, with the EXPLAIN of the `assetId=`
 *    query and of the trash's first page and total.
 *
 *   npm run build && npx ts-node -r tsconfig-paths/register --transpile-only bench/audit.bench.ts
 *
 * Settings: BENCH_ROUNDS (5), BENCH_SECONDS (5), BENCH_CONNECTIONS (8), BENCH_AUDIT_ROWS (10000000),
 * BENCH_TRASH_ROWS (1000000), BENCH_QUERIES (200), BENCH_PARTS (`put,scale`: either or both; `seed`
 * alone seeds the audit entries and keeps them), BENCH_SEED_DATABASE (dam_bench_audit_seed),
 * BENCH_KEEP_SEED (false: the seed database is dropped at the end). The 10M seed took 17 min on the
 * loaded 2-core machine (5 min of rows, 12 of indexes): seed once with BENCH_PARTS=seed, then run
 * BENCH_PARTS=scale BENCH_KEEP_SEED=true as often as needed. Writes bench/results/audit-put.md and
 * audit-scale.md.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Connection, createConnection, RowDataPacket } from 'mysql2/promise';
import { startBenchService, BenchService } from './bench-service';
import { median } from './overview-figures';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const AUDIT_ROWS = Number(process.env.BENCH_AUDIT_ROWS ?? 10_000_000);
const TRASH_ROWS = Number(process.env.BENCH_TRASH_ROWS ?? 1_000_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 200);
const ASSET_IDS = 1_000_000;
const SEED_CHUNK = 1_000_000;
const SEED_DATABASE = process.env.BENCH_SEED_DATABASE ?? 'dam_bench_audit_seed';
const SEED_ONLY = process.env.BENCH_PARTS === 'seed';
const KEEP_SEED = SEED_ONLY || process.env.BENCH_KEEP_SEED === 'true';

async function call(service: BenchService, method: string, url: string, body?: object): Promise<Response> {
  const response = await fetch(`${service.service.baseUrl}${url}`, {
    method,
    headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return response;
}

/** PUTs per second: CONNECTIONS loops, each retitling its own asset for SECONDS. */
async function putRate(service: BenchService, assets: string[], seconds: number): Promise<number> {
  const until = Date.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    assets.map(async (asset, loop) => {
      for (let n = 0; Date.now() < until; n += 1) {
        await call(service, 'PUT', asset, { attributes: [{ id: '1', value: `title ${loop}-${n}` }] });
        done += 1;
      }
    }),
  );
  return done / seconds;
}

async function putCost(): Promise<string[]> {
  const services = {
    audit: await startBenchService(),
    off: await startBenchService({ DAM_AUDIT_ENABLED: 'false' }),
  };
  try {
    const assets: Record<string, string[]> = {};
    for (const [kind, service] of Object.entries(services)) {
      assets[kind] = [];
      for (let i = 0; i < CONNECTIONS; i += 1) {
        const created = await call(service, 'POST', '/rest/assets', { accessLevels: [{ id: 1 }] });
        assets[kind].push(new URL(created.headers.get('location') as string).pathname);
      }
      await putRate(service, assets[kind], 2);
    }
    const rounds: Array<Record<'audit' | 'off', number>> = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const order = round % 2 === 0 ? (['audit', 'off'] as const) : (['off', 'audit'] as const);
      const figures = { audit: 0, off: 0 };
      for (const kind of order) figures[kind] = await putRate(services[kind], assets[kind], SECONDS);
      rounds.push(figures);
      console.log(`round ${round + 1}: audit ${figures.audit.toFixed(0)}/s, off ${figures.off.toFixed(0)}/s`);
    }
    const ratio = median(rounds.map((r) => r.audit / r.off));
    return [
      `## PUT /rest/assets/{id} (a title change), ${services.audit.describe}`,
      '',
      `${ROUNDS} rounds of ${SECONDS} s, ${CONNECTIONS} concurrent loops, alternating which goes first.`,
      '',
      '| service | PUT/s (median) | all rounds |',
      '|---|---|---|',
      ...(['audit', 'off'] as const).map((kind) => {
        const all = rounds.map((r) => r[kind]);
        return `| ${kind === 'audit' ? 'audit log on' : 'DAM_AUDIT_ENABLED=false'} | ${median(all).toFixed(0)} | ${Math.min(...all).toFixed(0)}-${Math.max(...all).toFixed(0)} |`;
      }),
      '',
      `on/off (median of the per-round ratios): **${ratio.toFixed(3)}**, a cost of ${((1 - ratio) * 100).toFixed(1)}% (target ≤ 15%)`,
      '',
    ];
  } finally {
    await services.audit.stop();
    await services.off.stop();
  }
}

/** p50 and p95 in ms of `paths`, one request at a time. */
async function latencies(service: BenchService, paths: string[]): Promise<{ p50: number; p95: number }> {
  const times: number[] = [];
  for (const url of paths) {
    const started = process.hrtime.bigint();
    await (await call(service, 'GET', url)).arrayBuffer();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times.sort((a, b) => a - b);
  const at = (share: number) => times[Math.min(times.length - 1, Math.floor(times.length * share))];
  return { p50: at(0.5), p95: at(0.95) };
}

/**
 * `audit_entries` of AUDIT_ROWS rows, seeded once in a database of its own (BENCH_SEED_DATABASE, kept
 * between runs with BENCH_KEEP_SEED=true) and swapped into the service's database by RENAME TABLE (and
 * back before it is dropped). Seeded without its secondary indexes, ids in order, SEED_CHUNK rows per
 * INSERT ... SELECT, then the indexes built in one ALTER (a sort each, instead of a million random
 * B-tree inserts per index); a seed cut short resumes from its highest id.
 */
async function seedAudit(db: Connection, service: string): Promise<number> {
  const started = Date.now();
  await db.query(`CREATE DATABASE IF NOT EXISTS \`${SEED_DATABASE}\``);
  const seedTable = `\`${SEED_DATABASE}\`.audit_entries`;
  const [existing] = await db.query<RowDataPacket[]>(
    'SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_schema = ? AND table_name = ?',
    [SEED_DATABASE, 'audit_entries'],
  );
  const [indexes] = await db.query<RowDataPacket[]>(
    `SELECT index_name AS name, GROUP_CONCAT(column_name ORDER BY seq_in_index) AS columns
     FROM information_schema.statistics WHERE table_schema = ? AND table_name = 'audit_entries'
     AND index_name <> 'PRIMARY' GROUP BY index_name`,
    [service],
  );
  if (Number(existing[0].n) === 0) {
    await db.query(`CREATE TABLE ${seedTable} LIKE \`${service}\`.audit_entries`);
    for (const index of indexes) await db.query(`ALTER TABLE ${seedTable} DROP INDEX \`${index.name}\``);
  }
  const [[{ seeded }]] = await db.query<RowDataPacket[]>(
    `SELECT COALESCE(MAX(id), 0) AS seeded FROM ${seedTable}`,
  );
  await db.query('SET SESSION unique_checks = 0, foreign_key_checks = 0');
  for (let offset = Number(seeded); offset < AUDIT_ROWS; offset += SEED_CHUNK) {
    const count = Math.min(SEED_CHUNK, AUDIT_ROWS - offset);
    await db.query(
      `INSERT INTO ${seedTable} (id, at, actor_user_id, client_id, request_id, action, target_type, target_id, changes)
       SELECT seq + ${offset}, NOW() - INTERVAL (${AUDIT_ROWS} - (seq + ${offset})) SECOND, 1 + (seq + ${offset}) % 500,
              'bench', NULL, ELT(1 + seq % 3, 'asset.updated', 'asset.downloaded', 'asset.content.replaced'),
              'assets', 1 + (seq + ${offset}) % ${ASSET_IDS}, '{"Title":{"before":"a","after":"b"}}'
       FROM seq_1_to_${count}`,
    );
    console.log(`audit_entries: ${offset + count} rows, ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
  const [present] = await db.query<RowDataPacket[]>(
    `SELECT COUNT(DISTINCT index_name) AS n FROM information_schema.statistics
     WHERE table_schema = ? AND table_name = 'audit_entries' AND index_name <> 'PRIMARY'`,
    [SEED_DATABASE],
  );
  if (Number(present[0].n) < indexes.length) {
    const add = indexes.map((index) => `ADD INDEX \`${index.name}\` (${String(index.columns)})`);
    await db.query(`ALTER TABLE ${seedTable} ${add.join(', ')}`);
    console.log(`audit_entries: indexes built, ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
  await db.query(`ANALYZE TABLE ${seedTable}`);
  return (Date.now() - started) / 1000;
}

/** Swaps the seeded `audit_entries` with the service's (both ways: the second call puts them back). */
async function swapAudit(db: Connection, service: string): Promise<void> {
  await db.query(
    `RENAME TABLE \`${service}\`.audit_entries TO \`${SEED_DATABASE}\`.audit_entries_swap,
                  \`${SEED_DATABASE}\`.audit_entries TO \`${service}\`.audit_entries,
                  \`${SEED_DATABASE}\`.audit_entries_swap TO \`${SEED_DATABASE}\`.audit_entries`,
  );
}

async function seed(db: Connection, service: string): Promise<number> {
  const seconds = await seedAudit(db, service);
  const started = Date.now();
  await db.query(
    `INSERT INTO trashed_assets (asset_id, title, deleted_by_user_id, deleted_at, purge_at, snapshot)
     SELECT ${ASSET_IDS} + seq, CONCAT('trashed ', seq), 1, NOW() - INTERVAL seq SECOND,
            NOW() + INTERVAL 30 DAY, '{}'
     FROM seq_1_to_${TRASH_ROWS}`,
  );
  // Rows written behind the service's back: the tally the trash keeps in its transactions moves with them.
  await db.query(`UPDATE trash_tally SET trashed = trashed + ${TRASH_ROWS} WHERE id = 1`);
  await db.query('ANALYZE TABLE trashed_assets');
  console.log(`trashed_assets: ${TRASH_ROWS} rows, ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return seconds;
}

/** The plans of the `assetId=` query and of the trash's first page and total, as the service runs them. */
async function explainAll(db: Connection): Promise<string[]> {
  const queries = [
    "SELECT * FROM audit_entries e WHERE e.target_type = 'assets' AND e.target_id = 4242 ORDER BY e.id DESC LIMIT 100",
    'SELECT id, asset_id, title, deleted_by_user_id, deleted_at, purge_at FROM trashed_assets ORDER BY deleted_at DESC, id DESC LIMIT 100',
    'SELECT trashed FROM trash_tally WHERE id = 1',
  ];
  const lines: string[] = [];
  for (const query of queries) {
    const [rows] = await db.query<RowDataPacket[]>(`EXPLAIN ${query}`);
    lines.push(query, ...rows.map((row) => JSON.stringify(row)), '');
  }
  return lines;
}

async function atScale(): Promise<string[]> {
  const service = await startBenchService({}, undefined, false, 'mysql');
  const db = await createConnection(service.databaseUrl as string);
  const name = new URL(service.databaseUrl as string).pathname.slice(1);
  let swapped = false;
  try {
    if (SEED_ONLY) {
      await seedAudit(db, name);
      return [];
    }
    const seconds = await seed(db, name);
    await swapAudit(db, name);
    swapped = true;
    const explain = await explainAll(db);
    const ids = Array.from({ length: QUERIES }, (_, i) => 1 + ((i * 7919) % ASSET_IDS));
    // Warm-up: right after the seed, InnoDB may still be flushing (a 503 past the statement deadline).
    for (let attempt = 1; ; attempt += 1) {
      try {
        await latencies(
          service,
          ids.slice(0, 20).map((id) => `/rest/admin/audit?assetId=${id}`),
        );
        break;
      } catch (error) {
        if (attempt === 10) throw error;
        console.log(`warm-up ${attempt}: ${String(error)}`);
        await new Promise((resolve) => setTimeout(resolve, 3000));
      }
    }
    // Only a user that exists may be named: the seeded actors 1..500 include the application user.
    const actor = ((await (await call(service, 'GET', '/rest/authenticated-user')).json()) as { id: number })
      .id;
    const rows = [
      [
        `\`/rest/admin/audit?assetId=\` (${AUDIT_ROWS / ASSET_IDS} entries each)`,
        ids.map((id) => `/rest/admin/audit?assetId=${id}`),
      ],
      [
        '`/rest/admin/audit?userId=` (the application user, 1 entry in 500; first page of 100)',
        ids.map(() => `/rest/admin/audit?userId=${actor}`),
      ],
      ['`/rest/admin/audit` (first page of 100)', ids.map(() => '/rest/admin/audit')],
      [
        '`/rest/admin/trash` (first page of 100, X-Total-Count)',
        ids.slice(0, 50).map(() => '/rest/admin/trash'),
      ],
    ] as const;
    const lines = [
      `## At scale: MariaDB, ${AUDIT_ROWS.toLocaleString('en')} audit entries over ${ASSET_IDS.toLocaleString('en')} asset ids, ${TRASH_ROWS.toLocaleString('en')} trashed assets`,
      '',
      `Audit entries seeded with SQL (INSERT ... SELECT FROM seq_1_to_N, indexes built after) in ${seconds.toFixed(0)} s in this run (${SEED_DATABASE}; a seed kept by BENCH_KEEP_SEED=true or BENCH_PARTS=seed is reused: then only checked and analyzed). ${QUERIES} requests one at a time (50 for the trash).`,
      '',
      '| request | p50 ms | p95 ms |',
      '|---|---|---|',
    ];
    for (const [name, paths] of rows) {
      const { p50, p95 } = await latencies(service, [...paths]);
      lines.push(`| ${name} | ${p50.toFixed(1)} | ${p95.toFixed(1)} |`);
      console.log(lines[lines.length - 1]);
    }
    lines.push(
      '',
      'EXPLAIN of the `assetId=` query, of the first page of the trash and of its total:',
      '',
      '```',
      ...explain,
      '```',
      '',
    );
    return lines;
  } finally {
    if (swapped) await swapAudit(db, name);
    if (!KEEP_SEED) await db.query(`DROP DATABASE IF EXISTS \`${SEED_DATABASE}\``);
    await db.end();
    await service.stop();
  }
}

/** Runs one part and writes its report to bench/results/{file}. */
async function part(title: string, file: string, lines: () => Promise<string[]>): Promise<void> {
  const started = `${new Date().toISOString()}, ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(2)} at the start`;
  const body = await lines();
  const report = [
    `# ${title} (issue 31)`,
    '',
    `${started}, ${os.loadavg()[0].toFixed(2)} at the end.`,
    '',
    ...body,
  ].join('\n');
  console.log(report);
  fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
  fs.writeFileSync(path.join(__dirname, 'results', file), report);
}

/** BENCH_PARTS: `put`, `scale` or both (default). */
async function main(): Promise<void> {
  const parts = (process.env.BENCH_PARTS ?? 'put,scale').split(',');
  if (parts.includes('put')) await part("The audit entry's cost on an asset PUT", 'audit-put.md', putCost);
  if (parts.includes('seed')) await atScale();
  if (parts.includes('scale')) await part('Audit and trash queries at scale', 'audit-scale.md', atScale);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
