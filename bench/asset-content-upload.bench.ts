/**
 * Upload throughput and service memory: N MiB (BENCH_UPLOAD_MB, default 2048) through `PUT
 * /rest/assets/{id}/content`, and through 100 temp-file chunks + `X-Copy-Temp-Chunked-File`, against the
 * API as a child process on the matrix of DAM_TEST_MATRIX (sqlite+fs or mysql+minio/s3rver); beside a raw
 * baseline (the same bytes piped by a bare Node HTTP server, bench/raw-pipe-server.js, to disk). Prints a table and writes it to
 * bench/results/asset-content-upload-<matrix>.md. The service runs from the build (dist/). Run:
 *   npm run build && npx ts-node -r tsconfig-paths/register --transpile-only bench/asset-content-upload.bench.ts
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startBenchService } from './bench-service';
import * as upload from './upload-steps';

const { MiB } = upload;

const TOTAL = Number(process.env.BENCH_UPLOAD_MB ?? 2048) * MiB;
const CHUNKS = 100;

async function main(): Promise<void> {
  const rate = (ms: number) => upload.mibPerSecond(TOTAL, ms).toFixed(1);
  const rawServer = await upload.startRawPipeServer(false);
  const raw = rate(await upload.rawPipeToDisk(rawServer, TOTAL).finally(() => rawServer.kill()));
  const { service, token, matrix, stop } = await startBenchService();
  try {
    const base = service.baseUrl;
    const booted = ((await service.rss('VmHWM')) ?? 0) / MiB;
    const directRate = rate(
      await upload.putContent(base, token, await upload.createAsset(base, token), TOTAL),
    );
    const started = performance.now();
    const temp = await upload.uploadChunks(base, token, upload.chunkSizes(TOTAL, CHUNKS));
    const chunksMs = performance.now() - started;
    const copyMs = await upload.copyTempFile(base, token, await upload.createAsset(base, token), temp);
    const peak = ((await service.rss('VmHWM')) ?? 0) / MiB;

    const table = [
      `| ${matrix} (${(TOTAL / MiB).toFixed(0)} MiB) | MiB/s |`,
      '|---|---|',
      `| raw baseline (bare Node HTTP server to disk) | ${raw} |`,
      `| PUT content, streamed body | ${directRate} |`,
      `| ${CHUNKS} chunks PUT | ${rate(chunksMs)} |`,
      `| X-Copy-Temp-Chunked-File (concatenate) | ${rate(copyMs)} |`,
      `| chunks + copy, end to end | ${rate(chunksMs + copyMs)} |`,
      '',
      `Peak RSS of the service process (VmHWM): ${peak.toFixed(0)} MiB (limit 300 MiB); ${booted.toFixed(0)} MiB after boot, before any upload.`,
    ].join('\n');
    process.stdout.write(`${table}\n`);
    const out = path.join(__dirname, 'results', `asset-content-upload-${matrix}.md`);
    fs.writeFileSync(
      out,
      `# asset-content-upload (${matrix})\n\nCommand: \`npm run build && BENCH_UPLOAD_MB=${TOTAL / MiB} DAM_TEST_MATRIX=${matrix} npx ts-node -r tsconfig-paths/register --transpile-only bench/asset-content-upload.bench.ts\`\n\n${table}\n`,
    );
  } finally {
    await stop();
  }
}

void main();
