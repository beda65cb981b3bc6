/**
 * Issue 29's read-path memory figures (`npm run bench -- read-allocation`, writes
 * bench/results/read-allocation.md), the service and the bare NestJS app (bench/bare-nest-app.js) side by
 * side in one run, the bare app answering the same asset JSON both ways: pass-through text
 * (`GET /bare/text`) and parse + serialise (`GET /bare`).
 * - Bytes allocated per GET on the V8 heap: each server runs with a young generation large enough that
 *   BENCH_GETS sequential GETs trigger no collection (`--min/max-semi-space-size`), and bench/heap-probe.js
 *   reports the used heap size before and after them; a probe that saw a collection is reported as such.
 * - Under a sustained read load (autocannon, 32 connections, BENCH_LOAD_SECONDS, default 60): req/s (and
 *   their ratio to the bare pass-through app's), p99, RSS after it and after BENCH_SETTLE_SECONDS (default
 *   10) idle, in which HeapRelease gives the load's growth back; the service as `npm start` runs it, then
 *   again under each V8 heap setting of
 *   BENCH_HEAP_TRIALS (`;`-separated; each trial is node flags and NAME=value environment settings, such as
 *   `MALLOC_ARENA_MAX=2 --max-semi-space-size=16`).
 * - Big uploads on a warm service (BENCH_WARM_UPLOADS, on unless 0): a 1 GiB big.bin and a 256 MiB big.jpg,
 *   each right after the same load, their peak RSS.
 * The service runs from the build (dist/). Run:
 *   npm run bench -- read-allocation [--mysql]
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ServiceProcess } from '../test/helpers/service-process';
import { BenchService, startBenchService } from './bench-service';
import { load } from './load';
import { createAsset, putContent } from './upload-steps';

const GETS = Number(process.env.BENCH_GETS ?? 500);
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const SETTLE_SECONDS = Number(process.env.BENCH_SETTLE_SECONDS ?? 10);
const CONNECTIONS = 32;
const MiB = 1024 * 1024;
/** Room for BENCH_GETS requests' garbage without a scavenge (MB per semi-space). */
const PROBE_FLAGS = ['--expose-gc', '--min-semi-space-size=256', '--max-semi-space-size=256'];
/** The node flags of `npm start` (package.json) and the Docker image. */
const NPM_START_FLAGS = ['--expose-gc', '--max-semi-space-size=8', '--heap-growing-percent=20'];

interface Subject {
  name: string;
  server: ServiceProcess;
  url: string;
  token?: string;
}

interface Probe {
  used?: number;
  settled?: number;
  gcs: number;
}

/** Signals the heap probe and waits for its next line that has `field`. */
async function probe(server: ServiceProcess, field: 'used' | 'settled', after: number): Promise<Probe> {
  if (field === 'used') process.kill(server.pid ?? 0, 'SIGWINCH');
  for (let waited = 0; waited < 10_000; waited += 20) {
    const line = server.output
      .slice(after)
      .find((entry) => entry.line.startsWith('heap-probe ') && entry.line.includes(`"${field}"`));
    if (line !== undefined) return JSON.parse(line.line.slice('heap-probe '.length)) as Probe;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the heap probe did not answer');
}

/** Bytes allocated per GET, or undefined when a collection ran among the GETs (the figure would be low). */
async function bytesPerGet(subject: Subject): Promise<number | undefined> {
  const headers: Record<string, string> = {};
  if (subject.token !== undefined) headers.authorization = `Bearer ${subject.token}`;
  const get = async () => {
    const response = await fetch(subject.url, { headers });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${subject.url} answered ${response.status}`);
  };
  for (let warm = 0; warm < 200; warm++) await get();
  let mark = subject.server.output.length;
  await probe(subject.server, 'used', mark);
  const before = await probe(subject.server, 'settled', mark);
  mark = subject.server.output.length;
  for (let index = 0; index < GETS; index++) await get();
  const after = await probe(subject.server, 'used', mark);
  await probe(subject.server, 'settled', mark);
  if (after.gcs !== before.gcs) return undefined;
  return ((after.used ?? 0) - (before.settled ?? 0)) / GETS;
}

interface Loaded {
  loaded: number;
  settled: number;
  rps: number;
  p99: number;
}

async function rssAfterLoad(subject: Subject): Promise<Loaded> {
  const figures = await load(subject.url, {
    connections: CONNECTIONS,
    seconds: LOAD_SECONDS,
    token: subject.token,
  });
  const loaded = (await subject.server.rss('VmRSS')) ?? NaN;
  await new Promise((resolve) => setTimeout(resolve, SETTLE_SECONDS * 1000));
  const settled = (await subject.server.rss('VmRSS')) ?? NaN;
  return { loaded, settled, rps: figures.requestsPerSecond, p99: figures.p99 };
}

/**
 * The service, an asset to GET, and the bare app serving the same JSON; `flags`: node flags of both (the
 * probe's), `serviceFlags`: more of the service's alone (a heap setting under trial).
 */
async function startSubjects(
  flags: string[],
  serviceFlags: string[] = [],
  serviceEnv: Record<string, string> = {},
): Promise<{ subjects: Subject[]; stop: () => Promise<void> }> {
  const preload = flags.length > 0 ? [...flags, '-r', './bench/heap-probe.js'] : [];
  const bench: BenchService = await startBenchService(
    serviceEnv,
    { args: [...preload, ...serviceFlags, 'dist/apps/api/src/main.js'], readyPath: '/health/live' },
    true,
  );
  const base = bench.service.baseUrl;
  const asset = await createAsset(base, bench.token);
  const assetUrl = `${base}${asset}`;
  const json = await (await fetch(assetUrl, { headers: { authorization: `Bearer ${bench.token}` } })).text();
  const bare = new ServiceProcess({ BARE_JSON: json }, false, {
    args: [...preload, 'bench/bare-nest-app.js'],
    readyPath: '/bare',
  });
  bare.keepOutput = true;
  await bare.start();
  return {
    subjects: [
      { name: 'service `GET /rest/assets/{id}`', server: bench.service, url: assetUrl, token: bench.token },
      { name: 'bare Nest, pass-through text', server: bare, url: `${bare.baseUrl}/bare/text` },
      { name: 'bare Nest, parse + serialise', server: bare, url: `${bare.baseUrl}/bare` },
    ],
    stop: async () => {
      await bare.kill();
      await bench.stop();
    },
  };
}

/** V8 heap settings tried on the service under the same load, `;`-separated (BENCH_HEAP_TRIALS). */
const HEAP_TRIALS = (
  process.env.BENCH_HEAP_TRIALS ??
  '--max-semi-space-size=16 --heap-growing-percent=20;--max-semi-space-size=64'
)
  .split(';')
  .filter((trial) => trial !== '');

/** Bytes allocated per GET of each subject, in processes run with the probe's flags. */
async function allocations(): Promise<{ names: string[]; bytes: Map<string, number | undefined> }> {
  const bytes = new Map<string, number | undefined>();
  const probed = await startSubjects(PROBE_FLAGS);
  try {
    for (const subject of probed.subjects) {
      console.log(`allocation per GET: ${subject.name}`);
      bytes.set(subject.name, await bytesPerGet(subject));
    }
  } finally {
    await probed.stop();
  }
  // The webhook dispatcher's poll (DAM_WEBHOOK_POLL_MS, once a second) allocates whatever the GETs do, so
  // it weighs on the figure above by how long the GETs take: the GET path alone, without it.
  const quiet = await startSubjects(PROBE_FLAGS, [], { DAM_WEBHOOK_POLL_MS: '0' });
  const name = 'service, `DAM_WEBHOOK_POLL_MS=0` (no background poll)';
  try {
    console.log(`allocation per GET: ${name}`);
    bytes.set(name, await bytesPerGet(quiet.subjects[0]));
  } finally {
    await quiet.stop();
  }
  return { names: [...probed.subjects.map((subject) => subject.name), name], bytes };
}

/**
 * The sustained load: the service as `npm start` runs it and the bare pass-through app side by side,
 * then the service again under each heap setting of HEAP_TRIALS (rows named by their flags).
 */
async function underLoad(): Promise<Array<{ name: string; figures: Loaded }>> {
  const rows: Array<{ name: string; figures: Loaded }> = [];
  const plain = await startSubjects([], NPM_START_FLAGS);
  try {
    // The bare app's two routes share a process: its RSS after the pass-through load is its floor.
    for (const subject of plain.subjects.slice(0, 2)) {
      console.log(`RSS under load: ${subject.name}`);
      rows.push({ name: subject.name, figures: await rssAfterLoad(subject) });
    }
  } finally {
    await plain.stop();
  }
  for (const trial of HEAP_TRIALS) {
    // A trial's words: node flags, and NAME=value settings of the environment (MALLOC_ARENA_MAX=2).
    const words = trial.split(' ').filter((word) => word !== '');
    const settings = words.filter((word) => /^[A-Z_][A-Z0-9_]*=/.test(word));
    const env = Object.fromEntries(
      settings.map((word) => [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]),
    );
    const flags = words.filter((word) => !settings.includes(word));
    const tried = await startSubjects([], [NPM_START_FLAGS[0], ...flags], env);
    try {
      console.log(`RSS under load: service with ${trial}`);
      rows.push({ name: `service, \`${trial}\``, figures: await rssAfterLoad(tried.subjects[0]) });
    } finally {
      await tried.stop();
    }
  }
  return rows;
}

/** Big uploads after the same load (BENCH_WARM_UPLOADS=0 skips them): the file name and its size. */
const WARM_UPLOADS: Array<[string, number]> =
  process.env.BENCH_WARM_UPLOADS === '0'
    ? []
    : [
        ['big.bin', 1024 * MiB],
        ['big.jpg', 256 * MiB],
      ];

interface WarmUpload {
  filename: string;
  size: number;
  before: number;
  peak: number;
  after: number;
}

/**
 * Each big upload on a warm service: one service as `npm start` runs it, LOAD_SECONDS of GETs at 32
 * connections, then the upload at once (RSS still at the load's level), its peak (VmHWM, reset before it)
 * 1.5 s after the answer, and RSS 3 s later (HeapRelease).
 */
async function warmUploads(): Promise<WarmUpload[]> {
  const rows: WarmUpload[] = [];
  if (WARM_UPLOADS.length === 0) return rows;
  const subjects = await startSubjects([], NPM_START_FLAGS);
  const service = subjects.subjects[0];
  const base = service.server.baseUrl;
  try {
    for (const [filename, size] of WARM_UPLOADS) {
      console.log(`warm upload: ${filename}`);
      await load(service.url, { connections: CONNECTIONS, seconds: LOAD_SECONDS, token: service.token });
      const asset = await createAsset(base, service.token ?? '');
      const before = (await service.server.rss('VmRSS')) ?? NaN;
      fs.writeFileSync(`/proc/${service.server.pid ?? 0}/clear_refs`, '5');
      await putContent(base, service.token ?? '', asset, size, filename);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const peak = (await service.server.rss('VmHWM')) ?? NaN;
      await new Promise((resolve) => setTimeout(resolve, 3000));
      rows.push({ filename, size, before, peak, after: (await service.server.rss('VmRSS')) ?? NaN });
    }
  } finally {
    await subjects.stop();
  }
  return rows;
}

const cell = (value: number | undefined, digits: number) =>
  value === undefined ? '—' : value.toFixed(digits);

async function main(): Promise<void> {
  const loadAtStart = os.loadavg()[0];
  const allocation = await allocations();
  const loads = await underLoad();
  const uploads = await warmUploads();
  const service = allocation.bytes.get(allocation.names[0]);
  const lines = [
    '# Read path: allocation per GET and RSS under load (issue 29)',
    '',
    `Command: \`npm run bench -- read-allocation\` (BENCH_GETS=${GETS}, BENCH_LOAD_SECONDS=${LOAD_SECONDS},` +
      ` BENCH_SETTLE_SECONDS=${SETTLE_SECONDS}, BENCH_HEAP_TRIALS=${HEAP_TRIALS.join(';')}). All servers side` +
      ' by side in this run, one after the other.',
    `Machine: ${os.cpus().length} cores, load average ${loadAtStart.toFixed(2)} at the start,` +
      ` ${os.loadavg()[0].toFixed(2)} at the end (shared with other work).`,
    '',
    '| server | bytes allocated per GET (V8 heap) | service ÷ this |',
    '|---|---|---|',
  ];
  for (const name of allocation.names) {
    const bytes = allocation.bytes.get(name);
    const ratio = bytes === undefined || service === undefined ? undefined : service / bytes;
    lines.push(
      `| ${name} | ${bytes === undefined ? 'a GC ran, not measured' : Math.round(bytes)} | ${cell(ratio, 2)} |`,
    );
  }
  const bare = loads[1].figures;
  lines.push(
    '',
    `Allocation: ${GETS} sequential GETs after 200 warm-up ones, V8 used heap before (after a full GC) and after,`,
    'no collection in between (young generation 256 MB).',
    '',
    `Under load: autocannon, ${CONNECTIONS} connections, ${LOAD_SECONDS} s, then ${SETTLE_SECONDS} s idle; the service` +
      ` runs as \`npm start\` does (\`node ${NPM_START_FLAGS.join(' ')}\`), the bare app with plain \`node\`;` +
      ' the trials replace the flags after `--expose-gc`.',
    '',
    '| server | req/s | ÷ bare pass-through | p99 ms | RSS after load MB | RSS settled MB | RSS ÷ bare |',
    '|---|---|---|---|---|---|---|',
  );
  for (const { name, figures } of loads) {
    lines.push(
      `| ${name} | ${cell(figures.rps, 0)} | ${cell(figures.rps / bare.rps, 2)} | ${cell(figures.p99, 0)} | ` +
        `${cell(figures.loaded / MiB, 0)} | ${cell(figures.settled / MiB, 0)} | ${cell(figures.loaded / bare.loaded, 2)} |`,
    );
  }
  if (uploads.length > 0) {
    lines.push(
      '',
      `Big uploads on a warm service (issue 29: RSS ≤ 300 MB): one service as \`npm start\` runs it,`,
      `${LOAD_SECONDS} s of the same GETs before each upload, the upload at once (one content PUT), its peak`,
      'RSS (VmHWM, reset before it) 1.5 s after the answer, and RSS 3 s later.',
      '',
      '| file | MiB | RSS before MB | peak MB | 3 s later MB |',
      '|---|---|---|---|---|',
    );
    for (const row of uploads) {
      lines.push(
        `| ${row.filename} | ${row.size / MiB} | ${cell(row.before / MiB, 0)} | ${cell(row.peak / MiB, 0)} | ` +
          `${cell(row.after / MiB, 0)} |`,
      );
    }
  }
  lines.push('');
  const report = lines.join('\n');
  console.log(report);
  fs.writeFileSync(path.join(__dirname, 'results', 'read-allocation.md'), report);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
