/**
 * Upload throughput and service memory: N MiB (BENCH_UPLOAD_MB, default 2048) through `PUT
 * /rest/assets/{id}/content`, and through 100 temp-file chunks + `X-Copy-Temp-Chunked-File`, against the
 * API as a child process on the matrix of DAM_TEST_MATRIX (sqlite+fs or mysql+minio/s3rver); beside a raw
 * baseline (the same bytes piped by a bare Node HTTP server to disk). Prints a table and writes it to
 * bench/results/asset-content-upload-<matrix>.md. The service runs from the build (dist/). Run:
 *   npm run build && npx ts-node -r tsconfig-paths/register --transpile-only bench/asset-content-upload.bench.ts
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import request from 'supertest';
import { createTestDatabase, MATRIX } from '../test/helpers/databases';
import { startObjectStore } from '../test/helpers/object-store';
import { pseudoRandomStream, streamRequest } from '../test/helpers/raw-http';
import { ServiceProcess } from '../test/helpers/service-process';

const MiB = 1024 * 1024;
const TOTAL = Number(process.env.BENCH_UPLOAD_MB ?? 2048) * MiB;
const CHUNKS = 100;

function rate(bytes: number, started: number): string {
  return (bytes / MiB / ((Date.now() - started) / 1000)).toFixed(1);
}

async function rawBaseline(): Promise<string> {
  const file = path.join(os.tmpdir(), `dam-bench-raw-${randomBytes(4).toString('hex')}`);
  const server = http.createServer((req, res) => {
    void pipeline(req, fs.createWriteStream(file)).then(() => res.end('ok'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as import('node:net').AddressInfo;
  const started = Date.now();
  await streamRequest('PUT', `http://127.0.0.1:${port}/`, {
    body: pseudoRandomStream('bench', 0, TOTAL),
    headers: { 'content-length': String(TOTAL) },
  });
  const result = rate(TOTAL, started);
  server.close();
  fs.rmSync(file, { force: true });
  return result;
}

async function main(): Promise<void> {
  const database = await createTestDatabase();
  const store = MATRIX === 'mysql' ? await startObjectStore() : undefined;
  const clientId = 'bench';
  const clientSecret = randomBytes(18).toString('base64url');
  const env: Record<string, string> = {
    DAM_DATA_DIR: database.dataDir,
    DAM_CLIENT_ID: clientId,
    DAM_CLIENT_SECRET: clientSecret,
    DAM_LOG_REQUESTS: 'false',
    DAM_JOBS_ENABLED: 'false',
    ...store?.env,
  };
  if (database.databaseUrl !== undefined) env.DATABASE_URL = database.databaseUrl;
  const service = new ServiceProcess(env, true);
  try {
    const raw = await rawBaseline();
    await service.start();
    const token = await service.token(clientId, clientSecret);
    const booted = ((await service.rss('VmHWM')) ?? 0) / MiB;
    const api = () => request(service.baseUrl);
    const newAsset = async () =>
      new URL(
        (
          await api()
            .post('/rest/assets')
            .auth(token, { type: 'bearer' })
            .send({ accessLevels: [{ id: 1 }] })
            .expect(201)
        ).headers.location as string,
      ).pathname;
    const headers = {
      'content-type': 'application/octet-stream',
      'content-disposition': 'attachment; filename="big.bin"',
    };

    const direct = await newAsset();
    let started = Date.now();
    const put = await streamRequest('PUT', `${service.baseUrl}${direct}/content`, {
      token,
      body: pseudoRandomStream('bench', 0, TOTAL),
      headers: { ...headers, 'content-length': String(TOTAL) },
    });
    if (put.status !== 200) throw new Error(`content PUT answered ${put.status} ${put.text}`);
    const directRate = rate(TOTAL, started);

    const temp = (
      await api().post('/rest/temp-chunked-files').auth(token, { type: 'bearer' }).send({}).expect(201)
    ).headers.location as string;
    const chunk = Math.ceil(TOTAL / CHUNKS);
    started = Date.now();
    for (let index = 0; index < CHUNKS; index++) {
      const size = Math.min(chunk, TOTAL - index * chunk);
      const reply = await streamRequest('PUT', `${temp}/${index}`, {
        token,
        body: pseudoRandomStream('bench-chunks', index, size),
        headers: { 'content-type': 'application/octet-stream', 'content-length': String(size) },
      });
      if (reply.status !== 200) throw new Error(`chunk ${index} answered ${reply.status} ${reply.text}`);
    }
    const chunksRate = rate(TOTAL, started);
    const copied = await newAsset();
    const copyStarted = Date.now();
    const copy = await streamRequest('PUT', `${service.baseUrl}${copied}/content`, {
      token,
      headers: { ...headers, 'x-copy-temp-chunked-file': temp, 'content-length': '0' },
    });
    if (copy.status !== 200) throw new Error(`copy answered ${copy.status} ${copy.text}`);
    const copyRate = rate(TOTAL, copyStarted);
    const chunkedRate = rate(TOTAL, started);
    const peak = ((await service.rss('VmHWM')) ?? 0) / MiB;

    const table = [
      `| ${MATRIX} (${(TOTAL / MiB).toFixed(0)} MiB) | MiB/s |`,
      '|---|---|',
      `| raw baseline (bare Node HTTP server to disk) | ${raw} |`,
      `| PUT content, streamed body | ${directRate} |`,
      `| ${CHUNKS} chunks PUT | ${chunksRate} |`,
      `| X-Copy-Temp-Chunked-File (concatenate) | ${copyRate} |`,
      `| chunks + copy, end to end | ${chunkedRate} |`,
      '',
      `Peak RSS of the service process (VmHWM): ${peak.toFixed(0)} MiB (limit 300 MiB); ${booted.toFixed(0)} MiB after boot, before any upload.`,
    ].join('\n');
    process.stdout.write(`${table}\n`);
    const out = path.join(__dirname, 'results', `asset-content-upload-${MATRIX}.md`);
    fs.writeFileSync(
      out,
      `# asset-content-upload (${MATRIX})\n\nCommand: \`npm run build && BENCH_UPLOAD_MB=${TOTAL / MiB} DAM_TEST_MATRIX=${MATRIX} npx ts-node -r tsconfig-paths/register --transpile-only bench/asset-content-upload.bench.ts\`\n\n${table}\n`,
    );
  } finally {
    await service.kill();
    await store?.stop();
    await database.drop();
  }
}

void main();
