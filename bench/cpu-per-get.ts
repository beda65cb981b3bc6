/**
 * CPU time per GET, A/B (issue 29): the server process's utime + stime (/proc/PID/stat) over BENCH_GETS
 * (20,000) GETs at 32 connections, after BENCH_WARM_GETS (10,000) warm-up ones, for each subject in
 * interleaved rounds (BENCH_ROUNDS, 3), medians. On a loaded machine req/s says little; the CPU a request
 * costs the server holds much better. Subjects: the service from dist/ (this build), from BENCH_BASE_DIST
 * (another build's dist folder inside the repository, e.g. `dist-base`, when set), both with npm start's
 * node flags, and the bare NestJS app answering the same JSON as pass-through text. BENCH_CPU_PROF=<dir>:
 * this build writes a V8 CPU profile there. Prints a table; writes nothing. Run:
 *   npm run build && BENCH_BASE_DIST=dist-base npx ts-node -r tsconfig-paths/register --transpile-only \
 *     bench/cpu-per-get.ts
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import { createRequire } from 'node:module';
import { ServiceProcess } from '../test/helpers/service-process';
import { BenchService, startBenchService } from './bench-service';
import { createAsset } from './upload-steps';

const GETS = Number(process.env.BENCH_GETS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** GETs before the rounds: with 2,000 the first round still ran 20-30 % higher (the JIT still at work). */
const WARM_GETS = Number(process.env.BENCH_WARM_GETS ?? 10_000);
const NPM_START_FLAGS = ['--expose-gc', '--max-semi-space-size=8', '--heap-growing-percent=20'];
const TICKS_PER_SECOND = 100; // USER_HZ on Linux

type Autocannon = (
  options: { url: string; connections: number; amount: number; headers: Record<string, string> },
  done: (error: Error | null, result: { non2xx: number; errors: number }) => void,
) => unknown;
const autocannon = createRequire(__filename)('autocannon') as Autocannon;

interface Subject {
  name: string;
  server: ServiceProcess;
  url: string;
  token?: string;
  stop(): Promise<void>;
  samples: number[];
}

function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND; // utime, stime
}

function fire(subject: Subject, amount: number): Promise<void> {
  const headers: Record<string, string> = {};
  if (subject.token !== undefined) headers.authorization = `Bearer ${subject.token}`;
  return new Promise((resolve, reject) => {
    autocannon({ url: subject.url, connections: 32, amount, headers }, (error, result) => {
      if (error !== null) return reject(error);
      if (result.non2xx > 0 || result.errors > 0) return reject(new Error(`${subject.name}: failures`));
      resolve();
    });
  });
}

async function service(name: string, dist: string, flags: string[] = []): Promise<Subject> {
  const bench: BenchService = await startBenchService(
    {},
    {
      args: [...NPM_START_FLAGS, ...flags, `${dist}/apps/api/src/main.js`],
      readyPath: '/health/live',
    },
  );
  const asset = await createAsset(bench.service.baseUrl, bench.token);
  return {
    name,
    server: bench.service,
    url: `${bench.service.baseUrl}${asset}`,
    token: bench.token,
    stop: () => bench.stop(),
    samples: [],
  };
}

async function main(): Promise<void> {
  const load = os.loadavg()[0];
  const subjects: Subject[] = [];
  if (process.env.BENCH_BASE_DIST)
    subjects.push(await service(`service, ${process.env.BENCH_BASE_DIST}`, process.env.BENCH_BASE_DIST));
  // BENCH_CPU_PROF=folder: this build writes a V8 CPU profile there when it stops.
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  subjects.push(await service('service, dist (this build)', 'dist', profile));
  const first = subjects[0];
  const json = await (await fetch(first.url, { headers: { authorization: `Bearer ${first.token}` } })).text();
  const bare = new ServiceProcess({ BARE_JSON: json }, false, {
    args: ['bench/bare-nest-app.js'],
    readyPath: '/bare',
  });
  await bare.start();
  subjects.push({
    name: 'bare Nest, pass-through text',
    server: bare,
    url: `${bare.baseUrl}/bare/text`,
    stop: () => bare.kill(),
    samples: [],
  });
  try {
    for (const subject of subjects) await fire(subject, WARM_GETS);
    for (let round = 0; round < ROUNDS; round++) {
      for (const subject of subjects) {
        const before = cpuSeconds(subject.server.pid ?? 0);
        await fire(subject, GETS);
        const spent = cpuSeconds(subject.server.pid ?? 0) - before;
        subject.samples.push((spent / GETS) * 1e6);
        console.log(`round ${round + 1} ${subject.name}: ${subject.samples.at(-1)?.toFixed(1)} us`);
      }
    }
  } finally {
    const profiled = subjects.find((subject) => subject.name.includes('this build'))?.server.pid;
    if (profile.length > 0 && profiled !== undefined) {
      process.kill(profiled, 'SIGTERM'); // V8 writes the profile on a clean exit, not on SIGKILL
      for (let waited = 0; waited < 20_000 && fs.existsSync(`/proc/${profiled}`); waited += 100) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    for (const subject of subjects) await subject.stop();
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const bareMedian = median(subjects.at(-1)?.samples ?? []);
  console.log(`\nload average ${load.toFixed(2)} at the start, ${os.loadavg()[0].toFixed(2)} at the end`);
  console.log('| server | CPU us per GET (median) | rounds | bare ÷ this |\n|---|---|---|---|');
  for (const subject of subjects) {
    const value = median(subject.samples);
    const rounds = subject.samples.map((sample) => sample.toFixed(0)).join(', ');
    console.log(`| ${subject.name} | ${value.toFixed(1)} | ${rounds} | ${(bareMedian / value).toFixed(2)} |`);
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
