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
import type { ChildProcess } from 'node:child_process';
import { ServiceProcess } from '../test/helpers/service-process';
import { BenchService, startBenchService } from './bench-service';
import { load, LoadFigures } from './load';
import { BigUploadRun, ChunkRound, OverviewReport, Settings, StartRun, UploadRow } from './overview-figures';
import { renderOverview } from './overview-report';
import { measureStart, statusField } from './startup';
import {
  chunkSizes,
  copyTempFile,
  createAsset,
  deleteTempFile,
  MiB,
  mibPerSecond,
  putContent,
  rawChunksAndCat,
  rawPipeToDisk,
  startRawPipeServer,
  uploadChunks,
} from './upload-steps';

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

/** The file names of the big uploads: the same random bytes, once as a plain file, once as an "image". */
const BIG_FILES = ['big.bin', 'big.jpg'];

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
      const { rows: uploads, chunkRounds } = await measureUploads(bench, workDir);
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
    const bigUploads = await measureBigUploads();
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

function log(message: string): void {
  process.stdout.write(`[${new Date().toISOString().slice(11, 19)}] ${message}\n`);
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

/** MiB/s of each upload step and baseline in one round. */
type UploadRound = Record<
  'raw' | 'put' | 'chunks' | 'rawChunks' | 'copy' | 'endToEnd' | 'cat' | 'rawEndToEnd',
  number
>;

/**
 * The content PUT beside the raw baseline, then the chunk PUTs and the copy beside the chunk writes and
 * `cat` of the raw baseline; every other round the baselines run after the service instead of before it.
 */
async function uploadRound(
  bench: BenchService,
  raw: ServiceProcess,
  keepDir: string,
  sizes: number[],
  baselineFirst: boolean,
): Promise<{ rates: UploadRound; times: ChunkRound }> {
  const { baseUrl } = bench.service;
  const { token } = bench;
  const rate = (ms: number) => mibPerSecond(SETTINGS.uploadBytes, ms);
  const beside = async <T, B>(service: () => Promise<T>, baseline: () => Promise<B>): Promise<[T, B]> => {
    if (baselineFirst) {
      const baselineResult = await baseline();
      return [await service(), baselineResult];
    }
    const result = await service();
    return [result, await baseline()];
  };
  const [putMs, rawMs] = await beside(
    async () => putContent(baseUrl, token, await createAsset(baseUrl, token), SETTINGS.uploadBytes),
    () => rawPipeToDisk(raw, SETTINGS.uploadBytes),
  );
  const [[chunksMs, copyMs], base] = await beside(
    () => chunksAndCopy(bench, sizes),
    () => rawChunksAndCat(raw, keepDir, sizes),
  );
  return {
    rates: {
      raw: rate(rawMs),
      put: rate(putMs),
      chunks: rate(chunksMs),
      rawChunks: rate(base.chunksMs),
      copy: rate(copyMs),
      endToEnd: rate(chunksMs + copyMs),
      cat: rate(base.catMs),
      rawEndToEnd: rate(base.chunksMs + base.catMs),
    },
    times: { copyMs, catMs: base.catMs },
  };
}

/** The chunk PUTs, then the copy into a new asset; their times in ms. The temp file is deleted. */
async function chunksAndCopy(bench: BenchService, sizes: number[]): Promise<[number, number]> {
  const { baseUrl } = bench.service;
  const { token } = bench;
  const started = performance.now();
  const temp = await uploadChunks(baseUrl, token, sizes);
  const chunksMs = performance.now() - started;
  const copyMs = await copyTempFile(baseUrl, token, await createAsset(baseUrl, token), temp);
  await deleteTempFile(token, temp);
  return [chunksMs, copyMs];
}

async function measureUploads(
  bench: BenchService,
  workDir: string,
): Promise<{ rows: UploadRow[]; chunkRounds: ChunkRound[] }> {
  const sizes = chunkSizes(SETTINGS.uploadBytes, SETTINGS.chunks);
  const rounds: UploadRound[] = [];
  const chunkRounds: ChunkRound[] = [];
  const keepDir = path.join(workDir, 'raw-chunks');
  fs.mkdirSync(keepDir);
  const raw = await startRawPipeServer(true, keepDir);
  try {
    for (let round = 1; round <= SETTINGS.rounds; round++) {
      const { rates, times } = await uploadRound(bench, raw, keepDir, sizes, round % 2 === 1);
      rounds.push(rates);
      chunkRounds.push(times);
      log(
        `upload round ${round}: PUT ${rates.put.toFixed(1)} MiB/s (pipe ${rates.raw.toFixed(1)}), ` +
          `copy ${(times.copyMs / 1000).toFixed(2)} s (cat ${(times.catMs / 1000).toFixed(2)} s), ` +
          `end to end ${rates.endToEnd.toFixed(1)} MiB/s (chunk writes + cat ${rates.rawEndToEnd.toFixed(1)})`,
      );
    }
  } finally {
    await raw.kill();
  }
  const all = (step: keyof UploadRound) => rounds.map((round) => round[step]);
  const pipe = 'bare Node HTTP server piping to a file + fsync';
  const chunks = SETTINGS.chunks;
  return {
    chunkRounds,
    rows: [
      {
        label: 'PUT /rest/assets/{id}/content (streamed body)',
        service: all('put'),
        baselineLabel: pipe,
        baseline: all('raw'),
      },
      {
        label: `${chunks} temp chunked file chunk PUTs`,
        service: all('chunks'),
        baselineLabel: `the same ${chunks} chunks PUT to the bare server, kept as files`,
        baseline: all('rawChunks'),
      },
      {
        label: `final chunk copy: X-Copy-Temp-Chunked-File of the ${chunks} chunks`,
        service: all('copy'),
        baselineLabel: `\`cat\` of the ${chunks} chunk files into one + fsync`,
        baseline: all('cat'),
      },
      {
        label: 'chunked upload end to end (chunk PUTs + copy)',
        service: all('endToEnd'),
        baselineLabel: 'chunk writes to the bare server + `cat`',
        baseline: all('rawEndToEnd'),
      },
    ],
  };
}

/** The pid of a ServiceProcess (a private field of the test helper; the benchmark only reads it). */
function pidOf(service: ServiceProcess): number {
  const pid = (service as unknown as { child?: ChildProcess }).child?.pid;
  if (pid === undefined) throw new Error('the service has no process');
  return pid;
}

/**
 * Single big uploads, each into a service started for it (so that no upload inherits the heap of
 * another): every size of BENCH_MEMORY_MB for each of BIG_FILES, BENCH_MEMORY_ROUNDS times (in reverse
 * order every other round). Once the service is up and the asset created, the kernel's peak counter of the
 * process is reset (`echo 5 > /proc/<pid>/clear_refs`: VmHWM starts again from the current VmRSS); after
 * the answer the benchmark waits 1.5 s for the work the service does after the response (renditions,
 * cleanup) and then reads VmHWM: the peak during that upload and its aftermath.
 */
async function measureBigUploads(): Promise<BigUploadRun[]> {
  const runs: BigUploadRun[] = [];
  const plan = BIG_FILES.flatMap((filename) => SETTINGS.memorySizes.map((size) => ({ filename, size })));
  for (let round = 1; round <= SETTINGS.memoryRounds; round++) {
    const order = round % 2 === 1 ? plan : [...plan].reverse();
    for (const { filename, size } of order) {
      const bench = await startBenchService();
      try {
        const pid = pidOf(bench.service);
        const { baseUrl } = bench.service;
        const assetPath = await createAsset(baseUrl, bench.token);
        fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
        const before = await statusField(pid, 'VmRSS');
        const ms = await putContent(baseUrl, bench.token, assetPath, size, filename);
        await new Promise((resolve) => setTimeout(resolve, SETTINGS.afterUploadMs));
        const peak = await statusField(pid, 'VmHWM');
        runs.push({ filename, size, round, before, peak, mibPerSecond: mibPerSecond(size, ms) });
        log(
          `big upload round ${round} ${filename} ${(size / MiB).toFixed(0)} MiB: peak ` +
            `${((peak ?? 0) / MiB).toFixed(0)} MiB (before ${((before ?? 0) / MiB).toFixed(0)} MiB), ` +
            `${mibPerSecond(size, ms).toFixed(1)} MiB/s`,
        );
      } finally {
        await bench.stop();
      }
    }
  }
  return runs;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
