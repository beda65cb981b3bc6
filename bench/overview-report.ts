/** The markdown of bench/results/latest.md: settings, machine, commands, the three tables. */
import * as os from 'node:os';
import type { Matrix } from '../test/helpers/databases';
import { LoadFigures, TIMEOUT_SECONDS } from './load';
import { MiB } from './upload-steps';

export interface Settings {
  rounds: number;
  seconds: number;
  warmUpSeconds: number;
  connections: number;
  uploadBytes: number;
  chunks: number;
  /** The access level tree of the search: tops, children of each top, children of each of those. */
  tree: { tops: number; perTop: number; perMiddle: number };
  assets: number;
}

/** An upload step over the rounds: MiB/s of the service, and of its baseline in the same rounds. */
export interface UploadRow {
  label: string;
  service: number[];
  baselineLabel?: string;
  baseline?: number[];
}

export interface OverviewReport {
  settings: Settings;
  matrix: Matrix;
  describe: string;
  /** The first is the bare endpoint, the baseline of the others. */
  requests: Array<{ label: string; runs: LoadFigures[] }>;
  uploads: UploadRow[];
  /** Resident set in bytes: after boot, peak after the request rounds (service), peak at the end. */
  memory: Record<
    'serviceBoot' | 'servicePeakReads' | 'servicePeak' | 'bareBoot' | 'barePeak',
    number | undefined
  >;
  /** 1, 5 and 15 minute load averages when the run started. */
  loadBefore: number[];
}

/** The middle run of an odd number of runs (the lower middle one of an even number): a measured figure. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const mib = (bytes: number | undefined) => (bytes === undefined ? 'n/a' : `${(bytes / MiB).toFixed(0)} MiB`);
const spread = (values: number[], digits: number) =>
  `${Math.min(...values).toFixed(digits)}-${Math.max(...values).toFixed(digits)}`;

/** Median over the rounds of service/baseline measured in the same round. */
function pairedRatio(service: number[], baseline: number[]): string {
  return median(service.map((value, round) => value / baseline[round])).toFixed(2);
}

function requestTable(report: OverviewReport): string[] {
  const bare = report.requests[0].runs.map((run) => run.requestsPerSecond);
  return [
    '| request | req/s | req/s, all rounds | p50 | p99 | bytes per answer | req/s service/bare |',
    '|---|---|---|---|---|---|---|',
    ...report.requests.map(({ label, runs }, index) => {
      const rps = runs.map((run) => run.requestsPerSecond);
      return (
        `| ${label} | ${median(rps).toFixed(0)} | ${spread(rps, 0)} | ${ms(median(runs.map((run) => run.p50)))} | ` +
        `${ms(median(runs.map((run) => run.p99)))} | ${median(runs.map((run) => run.bytesPerResponse)).toFixed(0)} | ` +
        `${index === 0 ? '(baseline)' : pairedRatio(rps, bare)} |`
      );
    }),
  ];
}

/** A line under the request table when some requests had no answer in time. */
function timeoutNote(report: OverviewReport): string[] {
  const stalled = report.requests
    .map(({ label, runs }) => ({ label, timeouts: runs.reduce((sum, run) => sum + run.timeouts, 0) }))
    .filter(({ timeouts }) => timeouts > 0);
  if (stalled.length === 0) return [];
  const list = stalled.map(({ label, timeouts }) => `${label}: ${timeouts}`).join('; ');
  return [
    '',
    `Requests without an answer within ${TIMEOUT_SECONDS} s (not in the latencies), over all rounds: ${list}.`,
  ];
}

function uploadTable(rows: UploadRow[]): string[] {
  return [
    '| upload | service MiB/s | all rounds | baseline | baseline MiB/s | service/baseline |',
    '|---|---|---|---|---|---|',
    ...rows.map(({ label, service, baselineLabel, baseline }) => {
      const base =
        baseline === undefined
          ? '| - | - | - |'
          : `| ${baselineLabel} | ${median(baseline).toFixed(1)} | ${pairedRatio(service, baseline)} |`;
      return `| ${label} | ${median(service).toFixed(1)} | ${spread(service, 1)} ${base}`;
    }),
  ];
}

function commands(report: OverviewReport): string[] {
  const { settings: s, matrix } = report;
  const overrides = [
    s.rounds !== 5 && `BENCH_ROUNDS=${s.rounds}`,
    s.seconds !== 10 && `BENCH_SECONDS=${s.seconds}`,
    s.connections !== 32 && `BENCH_CONNECTIONS=${s.connections}`,
    s.uploadBytes !== 512 * MiB && `BENCH_UPLOAD_MB=${s.uploadBytes / MiB}`,
    s.chunks !== 16 && `BENCH_CHUNKS=${s.chunks}`,
  ].filter((part): part is string => part !== false);
  const env = overrides.length === 0 ? '' : `${overrides.join(' ')} `;
  const matrixEnv = matrix === 'mysql' ? 'DAM_TEST_MATRIX=mysql ' : '';
  return [
    '```',
    `${env}npm run bench${matrix === 'mysql' ? ' -- --mysql' : ''}`,
    '# the same without run.js:',
    `npm run build && ${env}${matrixEnv}npx ts-node -r tsconfig-paths/register --transpile-only bench/overview.bench.ts`,
    '```',
  ];
}

function machine(report: OverviewReport): string {
  const cpus = os.cpus();
  const load = report.loadBefore.map((value) => value.toFixed(2)).join(' / ');
  return (
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpus.length} CPUs ` +
    `(${cpus[0]?.model ?? 'unknown'}), ${(os.totalmem() / 1024 ** 3).toFixed(0)} GiB RAM, ${os.type()} ${os.release()}, ` +
    `Node ${process.version}; load average at the start ${load} (1/5/15 min; above 0 means other work shared the cores).`
  );
}

export function renderOverview(report: OverviewReport): string {
  const { settings: s, memory } = report;
  const tree = s.tree.tops * (1 + s.tree.perTop * (1 + s.tree.perMiddle));
  return [
    `# Benchmark overview (${report.matrix})`,
    '',
    ...commands(report),
    '',
    machine(report),
    '',
    `Database and storage: **${report.describe}**. The service runs from the build (\`node dist/apps/api/src/main.js\`),`,
    'the bare endpoint as `node bench/bare-nest-app.js`, each in a process of its own; autocannon and the upload',
    'client run in the benchmark process. All three share the same cores.',
    '',
    `Every figure is the median of ${s.rounds} rounds; "all rounds" shows the lowest and highest. A round runs the`,
    'service and its baseline back to back (in reverse order every other round), and a ratio is the median of the',
    'per-round ratios, so that both sides of a ratio meet the same background load.',
    '',
    `## Requests (autocannon, ${s.connections} connections, ${s.seconds} s per run after a ${s.warmUpSeconds} s warm-up)`,
    '',
    ...requestTable(report),
    ...timeoutNote(report),
    '',
    `The asset has a small file and is read as the application user; the bare endpoint answers the same JSON`,
    `document. The search counts assets over ${tree} access levels (${s.tree.tops} x ${s.tree.perTop} x ${s.tree.perMiddle}) holding ${s.assets} assets.`,
    '',
    `## Uploads (${(s.uploadBytes / MiB).toFixed(0)} MiB, ${s.chunks} chunks, one request at a time)`,
    '',
    ...uploadTable(report.uploads),
    '',
    'Both baselines fsync their file before they finish, as the fs storage adapter does with every object.',
    ...(report.matrix === 'mysql'
      ? [
          'On this matrix the service writes to the S3 server named above instead, and its baselines stay on disk.',
        ]
      : []),
    '',
    '## Memory (resident set, from /proc)',
    '',
    '| process | after boot | peak by the end of the request rounds | peak over the whole run (VmHWM) |',
    '|---|---|---|---|',
    `| service | ${mib(memory.serviceBoot)} | ${mib(memory.servicePeakReads)} | ${mib(memory.servicePeak)} |`,
    `| bare NestJS app | ${mib(memory.bareBoot)} | ${mib(memory.barePeak)} | ${mib(memory.barePeak)} |`,
    '',
  ].join('\n');
}
