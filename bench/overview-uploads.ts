/**
 * The upload figures of the overview (bench/overview.bench.ts): content PUTs, chunk PUTs and their
 * assembly beside their bare baselines, and the peak resident set of single big uploads.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ChildProcess } from 'node:child_process';
import { ServiceProcess } from '../test/helpers/service-process';
import { BenchService, startBenchService } from './bench-service';
import { BigUploadRun, ChunkRound, Settings, UploadRow } from './overview-figures';
import { statusField } from './startup';
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

/** The file names of the big uploads: the same random bytes, once as a plain file, once as an "image". */
const BIG_FILES = ['big.bin', 'big.jpg'];

/** A line of progress on stdout, with the time. */
export function log(message: string): void {
  process.stdout.write(`[${new Date().toISOString().slice(11, 19)}] ${message}\n`);
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
  settings: Settings,
  bench: BenchService,
  raw: ServiceProcess,
  keepDir: string,
  sizes: number[],
  baselineFirst: boolean,
): Promise<{ rates: UploadRound; times: ChunkRound }> {
  const { baseUrl } = bench.service;
  const { token } = bench;
  const rate = (ms: number) => mibPerSecond(settings.uploadBytes, ms);
  const beside = async <T, B>(service: () => Promise<T>, baseline: () => Promise<B>): Promise<[T, B]> => {
    if (baselineFirst) {
      const baselineResult = await baseline();
      return [await service(), baselineResult];
    }
    const result = await service();
    return [result, await baseline()];
  };
  const [putMs, rawMs] = await beside(
    async () => putContent(baseUrl, token, await createAsset(baseUrl, token), settings.uploadBytes),
    () => rawPipeToDisk(raw, settings.uploadBytes),
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

export async function measureUploads(
  settings: Settings,
  bench: BenchService,
  workDir: string,
): Promise<{ rows: UploadRow[]; chunkRounds: ChunkRound[] }> {
  const sizes = chunkSizes(settings.uploadBytes, settings.chunks);
  const rounds: UploadRound[] = [];
  const chunkRounds: ChunkRound[] = [];
  const keepDir = path.join(workDir, 'raw-chunks');
  fs.mkdirSync(keepDir);
  const raw = await startRawPipeServer(true, keepDir);
  try {
    for (let round = 1; round <= settings.rounds; round++) {
      const { rates, times } = await uploadRound(settings, bench, raw, keepDir, sizes, round % 2 === 1);
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
  const chunks = settings.chunks;
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
export async function measureBigUploads(settings: Settings): Promise<BigUploadRun[]> {
  const runs: BigUploadRun[] = [];
  const plan = BIG_FILES.flatMap((filename) => settings.memorySizes.map((size) => ({ filename, size })));
  for (let round = 1; round <= settings.memoryRounds; round++) {
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
        await new Promise((resolve) => setTimeout(resolve, settings.afterUploadMs));
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
