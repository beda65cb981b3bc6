/**
 * The overview `npm run bench` prints and writes to bench/results/latest.md: the service (run from the
 * build, dist/, as a child process, as in production) beside baselines that do the same work without it,
 * with a summary of the figures of issue 14 at the top.
 * - cold start to first answer and idle resident set (2 s after that answer) of `node
 *   dist/apps/api/src/main.js`, over BENCH_STARTS starts, beside the bare NestJS app;
 * - `GET /rest/assets/{id}` and `GET /rest/access-level-search?count=true` under autocannon beside a bare
 *   NestJS endpoint (bench/bare-nest-app.js, another child process) reading one row with the service's
 *   driver (better-sqlite3; mysql2 on the mysql matrix) and answering it as the same asset JSON;
 * - content upload (`PUT /rest/assets/{id}/content`) beside a bare Node HTTP server piping to disk + fsync;
 * - chunk PUTs and their assembly (`X-Copy-Temp-Chunked-File`) beside the same chunks written by the bare
 *   server and joined by `cat`;
 * - the service's peak resident set during single big uploads (BENCH_MEMORY_MB, 256 and 1024 MiB, of a
 *   file named big.bin and of one named big.jpg, random bytes), each in a service started for it.
 * Each figure is the median of BENCH_ROUNDS rounds (BENCH_MEMORY_ROUNDS for the big uploads); in a round
 * every target runs once, one after the other, so that the service and its baseline meet the same
 * background load. Run:
 *   npm run bench [-- --mysql]
 *   npm run build && [DAM_TEST_MATRIX=mysql] npx ts-node -r tsconfig-paths/register --transpile-only bench/overview.bench.ts
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ServiceProcess } from '../test/helpers/service-process';
import { BenchService, startBenchService } from './bench-service';
import { load, LoadFigures } from './load';
import { OverviewReport, Settings, StartRun } from './overview-figures';
import { renderOverview } from './overview-report';
import { log, measureBigUploads, measureUploads } from './overview-uploads';
import { measureStart } from './startup';
import { createAsset, MiB, putContent } from './upload-steps';

const SETTINGS: Settings = {
  rounds: Number(process.env.BENCH_ROUNDS ?? 5),
  seconds: Number(process.env.BENCH_SECONDS ?? 10),
  warmUpSeconds: 3,
  connections: Number(process.env.BENCH_CONNECTIONS ?? 32),
  uploadBytes: Number(process.env.BENCH_UPLOAD_MB ?? 512) * MiB,
  chunks: Number(process.env.BENCH_CHUNKS ?? 32),
  starts: Number(process.env.BENCH_STARTS ?? 5),
  idleSettleMs: 2000,
  memorySizes: (process.env.BENCH_MEMORY_MB ?? '256,1024')
    .split(',')
    .map((size) => Number(size.trim()) * MiB)
    .sort((a, b) => a - b),
  memoryRounds: Number(process.env.BENCH_MEMORY_ROUNDS ?? 3),
  afterUploadMs: 1500,
  tree: { tops: 5, perTop: 4, perMiddle: 5 },
  assets: 250,
};

interface Target {
  label: string;
  url: string;
  token?: string;
}

async function main(): Promise<void> {
  const began = performance.now();
  const loads: Array<{ phase: string; load: number[] }> = [{ phase: 'start', load: os.loadavg() }];
  const phase = (name: string) => {
    loads.push({ phase: name, load: os.loadavg() });
    log(`${name} (load ${os.loadavg()[0].toFixed(2)})`);
  };
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-bench-overview-'));
  try {
    phase('cold starts');
    const starts = await measureStarts(workDir);

    phase('requests');
    const bench = await startBenchService();
    let bare: ServiceProcess | undefined;
    let report: Omit<OverviewReport, 'bigUploads' | 'loads' | 'minutes'>;
    try {
      const serviceBoot = await bench.service.rss('VmRSS');
      log(`service up (${bench.describe}); seeding`);
      const { assetPath, assetJson } = await seed(bench);
      bare = new ServiceProcess(
        // The same driver as the service: better-sqlite3 on a file of its own, or mysql2 on the service's
        // MySQL database (a table of its own).
        bench.databaseUrl === undefined
          ? { BARE_JSON: assetJson, BARE_DB: path.join(workDir, 'bare-requests.sqlite') }
          : { BARE_JSON: assetJson, BARE_MYSQL_URL: bench.databaseUrl },
        true,
        {
          args: ['bench/bare-nest-app.js'],
          readyPath: '/bare',
        },
      );
      await bare.start();
      const bareBoot = await bare.rss('VmRSS');
      const targets = requestTargets(bench, bare.baseUrl, assetPath);
      const requests = await measureRequests(targets);
      const servicePeakReads = await bench.service.rss('VmHWM');
      const barePeak = await bare.rss('VmHWM');
      await bare.kill();
      phase('uploads');
      const { rows: uploads, chunkRounds } = await measureUploads(SETTINGS, bench, workDir);
      report = {
        settings: SETTINGS,
        matrix: bench.matrix,
        describe: bench.describe,
        requests: targets.map((target, i) => ({ label: target.label, runs: requests[i] })),
        uploads,
        chunkRounds,
        starts,
        memory: {
          serviceBoot,
          servicePeakReads,
          servicePeak: await bench.service.rss('VmHWM'),
          bareBoot,
          barePeak,
        },
      };
    } finally {
      await bare?.kill();
      await bench.stop();
    }

    phase('big uploads');
    const bigUploads = await measureBigUploads(SETTINGS);
    loads.push({ phase: 'end', load: os.loadavg() });
    writeResult(
      renderOverview({ ...report, bigUploads, loads, minutes: (performance.now() - began) / 60_000 }),
    );
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

/**
 * BENCH_STARTS starts of the built service and of the bare app, alternately, each until its first
 * answer and then 2 s more for its idle resident set. The service starts on one data folder, so that
 * the first start (which creates the SQLite database and runs the migrations) is measured apart and the
 * counted ones open an existing database, as a restart does. Production defaults otherwise.
 */
async function measureStarts(
  workDir: string,
): Promise<{ service: StartRun[]; bare: StartRun[]; first: StartRun }> {
  const dataDir = path.join(workDir, 'cold-start-data');
  fs.mkdirSync(dataDir);
  const service = () =>
    measureStart({
      args: ['dist/apps/api/src/main.js'],
      env: { DAM_DATA_DIR: dataDir },
      readyPath: '/rest',
      settleMs: SETTINGS.idleSettleMs,
    });
  const bare = () =>
    measureStart({
      args: ['bench/bare-nest-app.js'],
      env: { BARE_DB: path.join(workDir, 'bare-start.sqlite') },
      readyPath: '/bare',
      settleMs: SETTINGS.idleSettleMs,
    });
  const first = await service();
  log(`first start (new database): ${first.firstAnswerMs.toFixed(0)} ms`);
  const runs = { service: [] as StartRun[], bare: [] as StartRun[], first };
  for (let start = 1; start <= SETTINGS.starts; start++) {
    const order = start % 2 === 1 ? (['service', 'bare'] as const) : (['bare', 'service'] as const);
    for (const which of order) {
      const figures = await (which === 'service' ? service() : bare());
      runs[which].push(figures);
      log(
        `start ${start} ${which}: first answer after ${figures.firstAnswerMs.toFixed(0)} ms, ` +
          `idle ${((figures.idleRss ?? 0) / MiB).toFixed(0)} MiB`,
      );
    }
  }
  return runs;
}

/** The bare endpoint first: it is the baseline of the others. */
function requestTargets(bench: BenchService, bareUrl: string, assetPath: string): Target[] {
  const base = bench.service.baseUrl;
  return [
    {
      label: `bare NestJS endpoint (one ${bench.matrix === 'mysql' ? 'MySQL' : 'SQLite'} row, same JSON as the asset)`,
      url: `${bareUrl}/bare`,
    },
    { label: 'GET /rest/assets/{id}', url: `${base}${assetPath}`, token: bench.token },
    {
      label: 'GET /rest/access-level-search?count=true',
      url: `${base}/rest/access-level-search?count=true`,
      token: bench.token,
    },
  ];
}

function writeResult(markdown: string): void {
  fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
  // SQLite (the default) writes latest.md; the mysql matrix keeps its own file beside it.
  const file = process.env.DAM_TEST_MATRIX === 'mysql' ? 'latest-mysql.md' : 'latest.md';
  fs.writeFileSync(path.join(__dirname, 'results', file), markdown);
  process.stdout.write(`\n${markdown}`);
}

async function call(bench: BenchService, method: string, url: string, body?: unknown): Promise<Response> {
  const response = await fetch(url.startsWith('http') ? url : bench.service.baseUrl + url, {
    method,
    headers: { authorization: `Bearer ${bench.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return response;
}

/**
 * The access level tree and its assets (spread over the leaves), through the API; then the asset the
 * GETs read, with a small file. Its JSON, as the service answers it, is what the bare endpoint returns.
 */
async function seed(bench: BenchService): Promise<{ assetPath: string; assetJson: string }> {
  const createLevel = async (name: string, parent?: string) =>
    (await call(bench, 'POST', '/rest/access-levels', { name, parent })).headers.get('location') ?? '';
  const leaves: number[] = [];
  const { tops, perTop, perMiddle } = SETTINGS.tree;
  for (let t = 1; t <= tops; t++) {
    const top = await createLevel(`Top ${t}`);
    for (let m = 1; m <= perTop; m++) {
      const middle = await createLevel(`Section ${t}.${m}`, top);
      for (let l = 1; l <= perMiddle; l++) {
        const leaf = await createLevel(`Folder ${t}.${m}.${l}`, middle);
        leaves.push(Number(leaf.slice(leaf.lastIndexOf('/') + 1)));
      }
    }
  }
  for (let i = 0; i < SETTINGS.assets; i++) {
    await createAsset(bench.service.baseUrl, bench.token, leaves[i % leaves.length]);
  }
  const assetPath = await createAsset(bench.service.baseUrl, bench.token, leaves[0]);
  await putContent(bench.service.baseUrl, bench.token, assetPath, 64 * 1024);
  return { assetPath, assetJson: await (await call(bench, 'GET', assetPath)).text() };
}

/**
 * A warm-up run per target, then the rounds (every target once, in reverse order every other round);
 * the figures of each target, round by round.
 */
async function measureRequests(targets: Target[]): Promise<LoadFigures[][]> {
  const options = (target: Target, seconds: number) => ({
    connections: SETTINGS.connections,
    seconds,
    token: target.token,
  });
  for (const target of targets) await load(target.url, options(target, SETTINGS.warmUpSeconds));
  const runs: LoadFigures[][] = targets.map(() => []);
  for (let round = 1; round <= SETTINGS.rounds; round++) {
    const order = [...targets.entries()];
    if (round % 2 === 0) order.reverse(); // neither side always runs first, on a warmer or cooler machine
    for (const [index, target] of order) {
      const figures = await load(target.url, options(target, SETTINGS.seconds));
      runs[index].push(figures);
      log(
        `round ${round} ${target.label}: ${figures.requestsPerSecond.toFixed(0)} req/s, p99 ${figures.p99} ms`,
      );
    }
  }
  return runs;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
