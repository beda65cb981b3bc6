/**
 * Issue 36's flood run (`npm run bench -- token-flood`, writes bench/results/token-flood.md): the latency
 * of what must stay fast, a signed `/files/…` download (a 64 KiB asset file), `GET /health/live` and a
 * correct client_credentials grant, each probed by one sequential loop, in three phases of BENCH_SECONDS:
 * - quiet: the probes alone;
 * - wrong secrets: 16 concurrent loops posting a wrong client secret for the real client id from one
 *   address (X-Forwarded-For, DAM_TRUST_PROXY; the correct grants come from another);
 * - wrong secrets + many-key bodies: the same, and a loop PUTting a 1 MB JSON object of 80k keys to an
 *   asset as the signed-in application user, from an address of its own (refused cheaply only once
 *   bounded request parsing is in; past DAM_BODY_REFUSALS_PER_MINUTE refusals answered 429 unread).
 * Each probe's p95 is set beside its quiet p95; the target is ≤ 2×. The flood's answers are counted by
 * status. The service runs from the build (dist/) in a child process, as in production. With
 * BENCH_BASELINE=<another build's dist/apps/api/src/main.js> (e.g. the commit before a change, built in
 * a copy of the repository), that build runs beside it and each phase is run on both, one after the
 * other, so that a before/after comparison shares one run (the machine is shared: runs apart differ). Run:
 *   npm run bench -- token-flood [--mysql]
 *   npm run build && npx ts-node -r tsconfig-paths/register --transpile-only bench/token-flood.bench.ts
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { BenchService, startBenchService } from './bench-service';
import { createAsset, putContent } from './upload-steps';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const FLOOD_LOOPS = 16;
const ATTACKER = '203.0.113.66';
/** The signed-in user's address in the many-key loop (the probes come from 127.0.0.1). */
const BODY_ATTACKER = '203.0.113.67';
/** The service's DAM_MAX_JSON_BODY_BYTES default: the many-key body stays within it (its shape is refused). */
const JSON_BODY_LIMIT = 1024 * 1024;
const CLIENT_ID = 'bench';

type Probe = 'signed download' | '/health/live' | 'correct grant';
type Phase = 'quiet' | 'wrong secrets' | 'wrong secrets + many-key bodies';

interface PhaseResult {
  phase: Phase;
  /** The build measured: `dist/`, or `baseline` (BENCH_BASELINE). */
  build: string;
  p95: Record<Probe, number>;
  samples: Record<Probe, number>;
  flood: Map<number, number>;
  /** Probes that failed in the phase, by probe. */
  failed: Map<string, number>;
  /** CPU seconds the service used in the phase (load-independent, unlike the latencies). */
  cpu: number;
  /** Bytes the service read in the phase (/proc rchar: sockets and files, the downloads' 64 KiB included). */
  read: number;
}

/** Probes that failed (a wrong status, or a connection reset under a stalled event loop), by probe. */
const failures = new Map<string, number>();

/** The time to a full answer; a failure is counted and its time kept (a stall must show in the p95). */
async function timed(probe: string, request: () => Promise<Response>, expected: number): Promise<number> {
  const started = performance.now();
  try {
    const response = await request();
    await response.arrayBuffer();
    if (response.status !== expected) failures.set(probe, (failures.get(probe) ?? 0) + 1);
  } catch {
    failures.set(probe, (failures.get(probe) ?? 0) + 1);
  }
  return performance.now() - started;
}

/** The bytes a process has read (sockets and files), from /proc/<pid>/io; NaN where it cannot be read. */
function bytesRead(pid: number | undefined): number {
  try {
    return Number(/^rchar: (\d+)$/m.exec(fs.readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? NaN);
  } catch {
    return NaN;
  }
}

function p95(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? NaN;
}

/** Runs `step` again and again until `until`; the latencies it returned. */
async function loop(until: number, step: () => Promise<number | undefined>): Promise<number[]> {
  const latencies: number[] = [];
  while (performance.now() < until) {
    const latency = await step();
    if (latency !== undefined) latencies.push(latency);
  }
  return latencies;
}

/** A JSON object of `keys` keys: 80,000 make 1,040,016 bytes, just within the byte limit. */
function manyKeyBody(keys: number): string {
  const parts: string[] = [];
  for (let key = 0; key < keys; key++) parts.push(`"k${key.toString(36).padStart(7, '0')}":1`);
  const body = `{"attributes":{${parts.join(',')}}}`;
  if (Buffer.byteLength(body) > JSON_BODY_LIMIT) throw new Error('the many-key body is past the byte limit');
  return body;
}

/** One running build under test: where it answers, and what the probes use. */
interface Target {
  build: string;
  base: string;
  token: string;
  secret: string;
  /** The asset's path (`/rest/assets/{id}`) the many-key bodies are PUT to. */
  asset: string;
  downloadUrl: string;
  service: BenchService['service'];
}

async function prepare(build: string, bench: BenchService): Promise<Target> {
  const base = bench.service.baseUrl;
  const asset = await createAsset(base, bench.token);
  await putContent(base, bench.token, asset, 64 * 1024, 'small.bin');
  const redirect = await fetch(`${base}${asset}/content`, {
    headers: { authorization: `Bearer ${bench.token}` },
    redirect: 'manual',
  });
  const download = redirect.headers.get('location');
  if (redirect.status !== 303 || download === null) throw new Error(`content answered ${redirect.status}`);
  const downloadUrl = new URL(download, base).toString();
  const service = bench.service;
  return { build, base, token: bench.token, secret: bench.clientSecret, asset, downloadUrl, service };
}

const body = manyKeyBody(80_000);

function probesOf(target: Target): Record<Probe, () => Promise<number>> {
  return {
    'signed download': () => timed('signed download', () => fetch(target.downloadUrl), 200),
    '/health/live': () => timed('/health/live', () => fetch(`${target.base}/health/live`), 200),
    'correct grant': () =>
      timed(
        'correct grant',
        () =>
          fetch(`${target.base}/oauth/token`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({
              grant_type: 'client_credentials',
              client_id: CLIENT_ID,
              client_secret: target.secret,
            }),
          }),
        200,
      ),
  };
}

async function phase(target: Target, name: Phase): Promise<PhaseResult> {
  const { base } = target;
  const cpuAtStart = (await target.service.cpuSeconds()) ?? NaN;
  const readAtStart = bytesRead(target.service.pid);
  const until = performance.now() + SECONDS * 1000;
  const flood = new Map<number, number>();
  const count = (status: number) => flood.set(status, (flood.get(status) ?? 0) + 1);
  const attackers: Array<Promise<number[]>> = [];
  if (name !== 'quiet') {
    for (let index = 0; index < FLOOD_LOOPS; index++) {
      attackers.push(
        loop(until, async () => {
          try {
            const response = await fetch(`${base}/oauth/token`, {
              method: 'POST',
              headers: {
                'content-type': 'application/x-www-form-urlencoded',
                'x-forwarded-for': ATTACKER,
              },
              body: new URLSearchParams({
                grant_type: 'client_credentials',
                client_id: CLIENT_ID,
                client_secret: 'wrong-secret',
              }),
            });
            await response.arrayBuffer();
            count(response.status);
          } catch {
            count(0);
          }
          return undefined;
        }),
      );
    }
  }
  if (name === 'wrong secrets + many-key bodies') {
    attackers.push(
      loop(until, async () => {
        try {
          const response = await fetch(`${base}${target.asset}`, {
            method: 'PUT',
            headers: {
              authorization: `Bearer ${target.token}`,
              'content-type': 'application/json',
              'x-forwarded-for': BODY_ATTACKER,
            },
            body,
          });
          await response.arrayBuffer();
          count(response.status);
        } catch {
          // Refused before the body was read, the connection closes under it: counted as status 0.
          count(0);
        }
        return undefined;
      }),
    );
  }
  const probes = probesOf(target);
  const names = Object.keys(probes) as Probe[];
  const latencies = await Promise.all(
    names.map((probe) =>
      loop(until, async () => {
        const latency = await probes[probe]();
        // The grants hash: one every 250 ms is a user logging in, not a load of its own.
        if (probe === 'correct grant') await new Promise((resolve) => setTimeout(resolve, 250));
        return latency;
      }),
    ),
  );
  await Promise.all(attackers);
  const result = {
    phase: name,
    build: target.build,
    p95: {},
    samples: {},
    flood,
    failed: new Map(failures),
    cpu: ((await target.service.cpuSeconds()) ?? NaN) - cpuAtStart,
    read: bytesRead(target.service.pid) - readAtStart,
  } as PhaseResult;
  failures.clear();
  names.forEach((probe, index) => {
    result.p95[probe] = p95(latencies[index]);
    result.samples[probe] = latencies[index].length;
  });
  return result;
}

async function main(): Promise<void> {
  const loadAtStart = os.loadavg()[0];
  const baselineMain = process.env.BENCH_BASELINE;
  const benches: Array<[string, BenchService]> = [];
  try {
    if (baselineMain !== undefined) {
      benches.push([
        'baseline',
        await startBenchService(
          { DAM_TRUST_PROXY: 'true' },
          { args: [baselineMain], readyPath: '/health/live' },
        ),
      ]);
    }
    benches.push(['dist/', await startBenchService({ DAM_TRUST_PROXY: 'true' })]);
    const targets: Target[] = [];
    for (const [build, bench] of benches) targets.push(await prepare(build, bench));

    const results: PhaseResult[] = [];
    for (const name of ['quiet', 'wrong secrets', 'wrong secrets + many-key bodies'] as Phase[]) {
      for (const target of targets) {
        console.log(`phase: ${name} on ${target.build} (${SECONDS} s)`);
        const result = await phase(target, name);
        results.push(result);
        console.log(JSON.stringify({ ...result, flood: [...result.flood], failed: [...result.failed] }));
      }
    }
    const report = render(results, benches[0][1].describe, loadAtStart, baselineMain);
    console.log(report);
    fs.writeFileSync(path.join(__dirname, 'results', 'token-flood.md'), report);
  } finally {
    for (const [, bench] of benches) await bench.stop();
  }
}

function render(
  results: PhaseResult[],
  describe: string,
  loadAtStart: number,
  baselineMain: string | undefined,
): string {
  const probes = Object.keys(results[0].p95) as Probe[];
  const quietOf = (build: string) =>
    results.find((r) => r.build === build && r.phase === 'quiet') ?? results[0];
  const builds =
    baselineMain === undefined
      ? []
      : [
          '',
          `Two builds side by side in this run, each phase on one then the other: \`baseline\` (${baselineMain})` +
            ' and `dist/` (this checkout); each ratio is to the quiet p95 of the same build.',
        ];
  const lines = [
    '# Token endpoint flood (issue 36)',
    '',
    `Command: \`npm run bench -- token-flood\` (BENCH_SECONDS=${SECONDS}). ${describe}.`,
    `Machine: ${os.cpus().length} cores, load average ${loadAtStart.toFixed(2)} at the start,` +
      ` ${os.loadavg()[0].toFixed(2)} at the end (shared with other work: absolute figures are lower bounds).`,
    ...builds,
    '',
    '| phase | build | ' +
      probes.map((probe) => `${probe} p95 ms (× quiet)`).join(' | ') +
      ' | flood answers | service CPU s | service MB read | failed probes |',
    '|---|---|' + probes.map(() => '---|').join('') + '---|---|---|---|',
  ];
  for (const result of results) {
    const quiet = quietOf(result.build);
    const cells = probes.map((probe) => {
      const ratio = result.p95[probe] / quiet.p95[probe];
      return `${result.p95[probe].toFixed(1)} (${ratio.toFixed(2)}×, n=${result.samples[probe]})`;
    });
    const flood = [...result.flood].map(([status, count]) => `${count}× ${status}`).join(', ') || '-';
    const failed = [...result.failed].map(([probe, count]) => `${count} ${probe}`).join(', ') || 'none';
    lines.push(
      `| ${result.phase} | ${result.build} | ${cells.join(' | ')} | ${flood} | ${result.cpu.toFixed(1)} | ${(result.read / 1e6).toFixed(1)} | ${failed} |`,
    );
  }
  lines.push(
    '',
    'Target: each p95 ≤ 2× its quiet figure. Status 0: the connection was closed before an answer. The wrong secrets come from one address: after',
    'DAM_LOGIN_MAX_FAILURES failures that pair is locked and answered 429 on a read, before any hash.',
    `The many-key bodies (${Buffer.byteLength(body)} bytes, 80,000 keys, within the 1 MiB byte limit) are PUT by the`,
    'signed-in application user from an address of its own; each refused one (413) closes its connection, and past',
    'DAM_BODY_REFUSALS_PER_MINUTE (60) refusals of the address or token a body is answered 429, a second late, unread.',
    '',
  );
  return lines.join('\n');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
