/**
 * Issue 33's numbers, side by side in one run: a share's public ZIP of BENCH_SHARE_TOTAL_MB (1024) in 8
 * files against downloading the same 8 items one by one through the share (each streamed to nowhere),
 * alternating which goes first; the service's resident memory during the ZIP (VmRSS sampled every 50 ms)
 * against its level just before; the service's CPU seconds per GiB sent by each (from /proc); and the p95
 * of `GET /rest/shares` (a page of 100 of 200 shares).
 *
 *   npm run build && npx ts-node -r tsconfig-paths/register --transpile-only bench/shares.bench.ts
 *
 * The service runs from the build in a child process on the DAM_TEST_MATRIX database (SQLite + fs by
 * default). Settings: BENCH_ROUNDS (3), BENCH_SHARE_TOTAL_MB (1024), BENCH_LIST_REQUESTS (300).
 * Writes bench/results/shares.md.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { createTestDatabase, MATRIX } from '../test/helpers/databases';
import { startObjectStore } from '../test/helpers/object-store';
import { ServiceProcess } from '../test/helpers/service-process';
import { median } from './overview-figures';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TOTAL_MB = Number(process.env.BENCH_SHARE_TOTAL_MB ?? 1024);
const LIST_REQUESTS = Number(process.env.BENCH_LIST_REQUESTS ?? 300);
const FILES = 8;
const MiB = 1024 * 1024;

async function call(
  base: string,
  token: string,
  method: string,
  url: string,
  body?: object,
): Promise<Response> {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return response;
}

/** PUTs `bytes` pseudo-random bytes (a 1 MiB block repeated, with a counter) as the asset's content. */
function upload(
  base: string,
  token: string,
  assetPath: string,
  bytes: number,
  filename: string,
): Promise<void> {
  const block = randomBytes(MiB);
  let sent = 0;
  const body = new Readable({
    read() {
      if (sent >= bytes) return void this.push(null);
      const part = Buffer.from(block.subarray(0, Math.min(MiB, bytes - sent)));
      part.writeUInt32LE(sent / MiB, 0);
      sent += part.length;
      this.push(part);
    },
  });
  return new Promise((resolve, reject) => {
    const request = http.request(`${base}${assetPath}/content`, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/octet-stream',
        'content-length': String(bytes),
        'content-disposition': `attachment; filename="${filename}"`,
      },
    });
    request.on('response', (response) => {
      response.resume();
      response.on('end', () =>
        response.statusCode === 200 ? resolve() : reject(new Error(`upload ${response.statusCode}`)),
      );
    });
    request.on('error', reject);
    body.pipe(request);
  });
}

/** GETs `url` and throws the body away as it comes; the bytes received. */
function drain(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (response) => {
        if (response.statusCode !== 200) return reject(new Error(`${url}: ${response.statusCode}`));
        let bytes = 0;
        response.on('data', (chunk: Buffer) => (bytes += chunk.length));
        response.on('end', () => resolve(bytes));
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

async function timed<T>(work: () => Promise<T>): Promise<{ seconds: number; value: T }> {
  const started = process.hrtime.bigint();
  const value = await work();
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, value };
}

async function main(): Promise<void> {
  const database = await createTestDatabase();
  const store = MATRIX === 'mysql' ? await startObjectStore() : undefined;
  const clientSecret = randomBytes(18).toString('base64url');
  const env: Record<string, string> = {
    DAM_DATA_DIR: database.dataDir,
    DAM_CLIENT_ID: 'bench',
    DAM_CLIENT_SECRET: clientSecret,
    DAM_LOG_REQUESTS: 'false',
    DAM_JOBS_ENABLED: 'false',
    DAM_WEBHOOK_POLL_MS: '0',
    ...store?.env,
  };
  if (database.databaseUrl !== undefined) env.DATABASE_URL = database.databaseUrl;
  const service = new ServiceProcess(env, true);
  try {
    await service.start();
    const base = service.baseUrl;
    const token = await service.token('bench', clientSecret);
    const level = (await (await call(base, token, 'POST', '/rest/access-levels', { name: 'L' })).json()) as {
      id: number;
    };
    const ids: number[] = [];
    const size = Math.floor((TOTAL_MB * MiB) / FILES);
    for (let i = 0; i < FILES; i++) {
      const created = await call(base, token, 'POST', '/rest/assets', { accessLevels: [{ id: level.id }] });
      const assetPath = new URL(created.headers.get('location') as string).pathname;
      await upload(base, token, assetPath, size, `part-${i + 1}.bin`);
      ids.push(Number(assetPath.split('/').pop()));
    }
    const share = (await (await call(base, token, 'POST', '/rest/shares', { assetIds: ids })).json()) as {
      publicUrl: string;
    };
    const publicPath = new URL(share.publicUrl).pathname;
    const listing = (await (await fetch(`${base}${publicPath}`)).json()) as {
      items: Array<{ downloadUrl: string }>;
    };
    const items = listing.items.map((item) => `${base}${new URL(item.downloadUrl).pathname}`);
    const zipUrl = `${base}${publicPath}/zip`;
    const oneByOne = async () => {
      let bytes = 0;
      for (const item of items) bytes += await drain(item);
      return bytes;
    };
    const zipWithMemory = async () => {
      const before = (await service.rss('VmRSS')) ?? 0;
      let peak = before;
      const sampler = setInterval(() => {
        void service.rss('VmRSS').then((rss) => (peak = Math.max(peak, rss ?? 0)));
      }, 50);
      try {
        const bytes = await drain(zipUrl);
        return { bytes, growth: peak - before, before };
      } finally {
        clearInterval(sampler);
      }
    };
    await drain(items[0]); // warm-up
    const rounds: Array<{
      zip: number;
      items: number;
      growth: number;
      before: number;
      zipCpu: number;
      itemsCpu: number;
    }> = [];
    /** The service's CPU seconds per GiB sent while `work` runs (from /proc: not the machine's load). */
    const cpuPerGiB = async <T>(work: () => Promise<T>, bytes: (value: T) => number) => {
      const before = (await service.cpuSeconds()) ?? NaN;
      const result = await timed(work);
      const cpu = ((await service.cpuSeconds()) ?? NaN) - before;
      return { ...result, cpu: cpu / (bytes(result.value) / (1024 * MiB)) };
    };
    for (let round = 0; round < ROUNDS; round++) {
      const first = round % 2 === 0 ? 'zip' : 'items';
      let zip = { seconds: 0, value: { bytes: 0, growth: 0, before: 0 }, cpu: 0 };
      let one = { seconds: 0, value: 0, cpu: 0 };
      for (const kind of first === 'zip' ? ['zip', 'items'] : ['items', 'zip']) {
        if (kind === 'zip') zip = await cpuPerGiB(zipWithMemory, (value) => value.bytes);
        else one = await cpuPerGiB(oneByOne, (value) => value);
      }
      const figures = {
        zip: zip.value.bytes / MiB / zip.seconds,
        items: one.value / MiB / one.seconds,
        growth: zip.value.growth,
        zipCpu: zip.cpu,
        itemsCpu: one.cpu,
        before: zip.value.before,
      };
      rounds.push(figures);
      console.log(
        `round ${round + 1}: zip ${figures.zip.toFixed(0)} MiB/s, one by one ${figures.items.toFixed(0)} MiB/s, ` +
          `RSS +${(figures.growth / MiB).toFixed(1)} MiB during the ZIP, service CPU s/GiB ` +
          `${figures.zipCpu.toFixed(2)} (ZIP) ${figures.itemsCpu.toFixed(2)} (one by one)`,
      );
    }
    for (let i = 0; i < 200; i++)
      await call(base, token, 'POST', '/rest/shares', { assetIds: [ids[i % FILES]] });
    const latencies: number[] = [];
    for (let i = 0; i < LIST_REQUESTS + 20; i++) {
      const { seconds } = await timed(async () =>
        (await call(base, token, 'GET', '/rest/shares')).arrayBuffer(),
      );
      if (i >= 20) latencies.push(seconds * 1000);
    }
    latencies.sort((a, b) => a - b);
    const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
    const ratio = median(rounds.map((r) => r.zip / r.items));
    const growth = Math.max(...rounds.map((r) => r.growth));
    const report = [
      '# Shares: public ZIP vs items one by one, memory, listing (issue 33)',
      '',
      `${new Date().toISOString()}, ${MATRIX}, ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(2)} at the end; ` +
        `${FILES} files of ${(size / MiB).toFixed(0)} MiB (${TOTAL_MB} MiB), ${ROUNDS} rounds alternating which goes first.`,
      '',
      '| round | ZIP MiB/s | one by one MiB/s | ZIP/one by one | RSS before the ZIP (MiB) | RSS growth during it (MiB) | service CPU s/GiB, ZIP | service CPU s/GiB, one by one |',
      '|---|---|---|---|---|---|---|---|',
      ...rounds.map(
        (r, i) =>
          `| ${i + 1} | ${r.zip.toFixed(0)} | ${r.items.toFixed(0)} | ${(r.zip / r.items).toFixed(2)} | ` +
          `${(r.before / MiB).toFixed(0)} | ${(r.growth / MiB).toFixed(1)} | ${r.zipCpu.toFixed(2)} | ${r.itemsCpu.toFixed(2)} |`,
      ),
      '',
      `ZIP/one by one (median of the per-round ratios): **${ratio.toFixed(2)}** (target ≥ 0.8)`,
      '',
      `Largest RSS growth during a ZIP: **${(growth / MiB).toFixed(1)} MiB** (target < 64 MB)`,
      '',
      `Service CPU seconds per GiB sent (median; from /proc, so less moved by the machine's load than the rates): ` +
        `ZIP ${median(rounds.map((r) => r.zipCpu)).toFixed(2)}, one by one ${median(rounds.map((r) => r.itemsCpu)).toFixed(2)}`,
      '',
      `\`GET /rest/shares\` (first page of 100 of 200 shares, ${LIST_REQUESTS} sequential requests after 20 warm-up): ` +
        `p50 ${p(0.5).toFixed(1)} ms, **p95 ${p(0.95).toFixed(1)} ms** (target < 20 ms), p99 ${p(0.99).toFixed(1)} ms`,
      '',
    ].join('\n');
    console.log(report);
    fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
    fs.writeFileSync(
      path.join(__dirname, 'results', MATRIX === 'mysql' ? 'shares-mysql.md' : 'shares.md'),
      report,
    );
  } finally {
    await service.kill();
    await store?.stop();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
