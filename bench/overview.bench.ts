/**
 * The overview `npm run bench` prints and writes to bench/results/latest.md: the service (run from the
 * build, dist/, as a child process, as in production) beside baselines that do the same work without it.
 * - `GET /rest/assets/{id}` and `GET /rest/access-level-search?count=true` under autocannon beside a bare
 *   NestJS endpoint (bench/bare-nest-app.js, another child process) answering the same asset JSON;
 * - content upload (`PUT /rest/assets/{id}/content`) beside a bare Node HTTP server piping to disk;
 * - chunk assembly (`X-Copy-Temp-Chunked-File`) beside `cat` of the same chunks into one file;
 * - the service's peak RSS over the whole run.
 * Each figure is the median of BENCH_ROUNDS rounds; in a round every target runs once, one after the
 * other, so that the service and its baseline meet the same background load. Run:
 *   npm run bench [-- --mysql]
 *   npm run build && [DAM_TEST_MATRIX=mysql] npx ts-node -r tsconfig-paths/register --transpile-only bench/overview.bench.ts
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ServiceProcess } from '../test/helpers/service-process';
import { BenchService, startBenchService } from './bench-service';
import { load, LoadFigures } from './load';
import { renderOverview, Settings, UploadRow } from './overview-report';
import {
  catChunks,
  chunkSizes,
  copyTempFile,
  createAsset,
  deleteTempFile,
  MiB,
  mibPerSecond,
  putContent,
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
  chunks: Number(process.env.BENCH_CHUNKS ?? 16),
  tree: { tops: 5, perTop: 4, perMiddle: 5 },
  assets: 250,
};

interface Target {
  label: string;
  url: string;
  token?: string;
}

async function main(): Promise<void> {
  const loadBefore = os.loadavg();
  const bench = await startBenchService();
  let bare: ServiceProcess | undefined;
  try {
    const serviceBoot = await bench.service.rss('VmRSS');
    log(`service up (${bench.describe}); seeding`);
    const { assetPath, assetJson } = await seed(bench);
    bare = new ServiceProcess({ BARE_JSON: assetJson }, true, {
      args: ['bench/bare-nest-app.js'],
      readyPath: '/bare',
    });
    await bare.start();
    const bareBoot = await bare.rss('VmRSS');
    const targets = requestTargets(bench, bare.baseUrl, assetPath);
    const requests = await measureRequests(targets);
    const servicePeakReads = await bench.service.rss('VmHWM');
    const uploads = await measureUploads(bench);
    writeResult(
      renderOverview({
        settings: SETTINGS,
        matrix: bench.matrix,
        describe: bench.describe,
        requests: targets.map((target, i) => ({ label: target.label, runs: requests[i] })),
        uploads,
        memory: {
          serviceBoot,
          servicePeakReads,
          servicePeak: await bench.service.rss('VmHWM'),
          bareBoot,
          barePeak: await bare.rss('VmHWM'),
        },
        loadBefore,
      }),
    );
  } finally {
    await bare?.kill();
    await bench.stop();
  }
}

/** The bare endpoint first: it is the baseline of the others. */
function requestTargets(bench: BenchService, bareUrl: string, assetPath: string): Target[] {
  const base = bench.service.baseUrl;
  return [
    { label: 'bare NestJS endpoint (same JSON as the asset)', url: `${bareUrl}/bare` },
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
type UploadRound = Record<'raw' | 'put' | 'chunks' | 'copy' | 'endToEnd' | 'cat', number>;

/**
 * The content PUT beside the raw baseline, then the chunk PUTs and the copy beside the `cat` baseline;
 * every other round the baselines run after the service instead of before it.
 */
async function uploadRound(
  bench: BenchService,
  raw: ServiceProcess,
  sizes: number[],
  baselineFirst: boolean,
): Promise<UploadRound> {
  const { baseUrl } = bench.service;
  const { token } = bench;
  const rate = (ms: number) => mibPerSecond(SETTINGS.uploadBytes, ms);
  const beside = async <T>(
    service: () => Promise<T>,
    baseline: () => Promise<number>,
  ): Promise<[T, number]> => {
    if (baselineFirst) {
      const baselineMs = await baseline();
      return [await service(), baselineMs];
    }
    const result = await service();
    return [result, await baseline()];
  };
  const [putMs, rawMs] = await beside(
    async () => putContent(baseUrl, token, await createAsset(baseUrl, token), SETTINGS.uploadBytes),
    () => rawPipeToDisk(raw, SETTINGS.uploadBytes),
  );
  const [[chunksMs, copyMs], catMs] = await beside(
    () => chunksAndCopy(bench, sizes),
    () => catChunks(sizes),
  );
  return {
    raw: rate(rawMs),
    put: rate(putMs),
    chunks: rate(chunksMs),
    copy: rate(copyMs),
    endToEnd: rate(chunksMs + copyMs),
    cat: rate(catMs),
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

async function measureUploads(bench: BenchService): Promise<UploadRow[]> {
  const sizes = chunkSizes(SETTINGS.uploadBytes, SETTINGS.chunks);
  const rounds: UploadRound[] = [];
  const raw = await startRawPipeServer(true);
  try {
    for (let round = 1; round <= SETTINGS.rounds; round++) {
      const figures = await uploadRound(bench, raw, sizes, round % 2 === 1);
      rounds.push(figures);
      log(
        `upload round ${round}: PUT ${figures.put.toFixed(1)} MiB/s, copy ${figures.copy.toFixed(1)} MiB/s`,
      );
    }
  } finally {
    await raw.kill();
  }
  const all = (step: keyof UploadRound) => rounds.map((round) => round[step]);
  const pipe = 'bare Node HTTP server piping to a file';
  const chunks = SETTINGS.chunks;
  return [
    {
      label: 'PUT /rest/assets/{id}/content (streamed body)',
      service: all('put'),
      baselineLabel: pipe,
      baseline: all('raw'),
    },
    {
      label: `${chunks} temp chunked file chunk PUTs`,
      service: all('chunks'),
      baselineLabel: pipe,
      baseline: all('raw'),
    },
    {
      label: `chunk assembly: X-Copy-Temp-Chunked-File of the ${chunks} chunks`,
      service: all('copy'),
      baselineLabel: `\`cat\` of the ${chunks} chunk files into one`,
      baseline: all('cat'),
    },
    { label: 'chunk PUTs + assembly, end to end', service: all('endToEnd') },
  ];
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
