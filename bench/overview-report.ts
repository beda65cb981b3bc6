/**
 * The markdown of bench/results/latest.md: settings, machine and its load, commands, the summary of the
 * figures of issue 14 (each beside its baseline and target), then the tables they come from.
 */
import * as os from 'node:os';
import { BigUploadRun, median, OverviewReport, StartRun, UploadRow } from './overview-figures';
import { LoadFigures, TIMEOUT_SECONDS } from './load';
import { MiB } from './upload-steps';

const ms = (value: number) => `${value.toFixed(1)} ms`;
const mib = (bytes: number | undefined) => (bytes === undefined ? 'n/a' : `${(bytes / MiB).toFixed(0)} MiB`);
/** MiB and, for the issue's targets (in MB), MB. */
const mibMb = (bytes: number | undefined) =>
  bytes === undefined ? 'n/a' : `${(bytes / MiB).toFixed(0)} MiB (${(bytes / 1e6).toFixed(0)} MB)`;
const spread = (values: number[], digits: number) =>
  `${Math.min(...values).toFixed(digits)}-${Math.max(...values).toFixed(digits)}`;
const defined = (values: Array<number | undefined>) => values.filter((v): v is number => v !== undefined);
const sizeLabel = (bytes: number) =>
  bytes >= 1024 * MiB ? `${bytes / (1024 * MiB)} GiB` : `${bytes / MiB} MiB`;

/** Median over the rounds of service/baseline measured in the same round. */
function pairedRatioValue(service: number[], baseline: number[]): number {
  return median(service.map((value, round) => value / baseline[round]));
}

function pairedRatio(service: number[], baseline: number[]): string {
  return pairedRatioValue(service, baseline).toFixed(2);
}

function requestTable(report: OverviewReport): string[] {
  const bare = report.requests[0].runs.map((run) => run.requestsPerSecond);
  return [
    '| request | req/s | req/s, all rounds | p50 | p99 | p99, all rounds | bytes per answer | req/s service/bare |',
    '|---|---|---|---|---|---|---|---|',
    ...report.requests.map(({ label, runs }, index) => {
      const rps = runs.map((run) => run.requestsPerSecond);
      const p99 = runs.map((run) => run.p99);
      return (
        `| ${label} | ${median(rps).toFixed(0)} | ${spread(rps, 0)} | ${ms(median(runs.map((run) => run.p50)))} | ` +
        `${ms(median(p99))} | ${spread(p99, 0)} ms | ${median(runs.map((run) => run.bytesPerResponse)).toFixed(0)} | ` +
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

function startTable(report: OverviewReport): string[] {
  const { service, bare, first } = report.starts;
  const row = (label: string, runs: StartRun[]) => {
    const times = runs.map((run) => run.firstAnswerMs / 1000);
    const idle = defined(runs.map((run) => run.idleRss));
    return (
      `| ${label} | ${median(times).toFixed(2)} s | ${spread(times, 2)} s | ` +
      `${idle.length === 0 ? 'n/a' : mib(median(idle))} | ${
        idle.length === 0
          ? 'n/a'
          : spread(
              idle.map((v) => v / MiB),
              0,
            )
      } MiB |`
    );
  };
  return [
    '| process | first answer (median) | all starts | idle RSS (median) | all starts |',
    '|---|---|---|---|---|',
    row('service, `node dist/apps/api/src/main.js` (existing database)', service),
    row('bare NestJS app, `node bench/bare-nest-app.js`', bare),
    `| service, first start on an empty data folder (creates the database, runs the migrations; not counted) | ` +
      `${(first.firstAnswerMs / 1000).toFixed(2)} s | - | ${mib(first.idleRss)} | - |`,
  ];
}

/** The runs of one file name and size. */
function bigRuns(report: OverviewReport, filename: string, size: number): BigUploadRun[] {
  return report.bigUploads.filter((run) => run.filename === filename && run.size === size);
}

function bigPeak(report: OverviewReport, filename: string, size: number): number | undefined {
  const peaks = defined(bigRuns(report, filename, size).map((run) => run.peak));
  return peaks.length === 0 ? undefined : median(peaks);
}

function bigUploadTable(report: OverviewReport): string[] {
  const names = [...new Set(report.bigUploads.map((run) => run.filename))];
  return [
    '| file | size | peak RSS during the upload (median) | all rounds | RSS before the upload | MiB/s |',
    '|---|---|---|---|---|---|',
    ...names.flatMap((filename) =>
      report.settings.memorySizes.map((size) => {
        const runs = bigRuns(report, filename, size);
        const peaks = defined(runs.map((run) => run.peak)).map((v) => v / MiB);
        const before = defined(runs.map((run) => run.before));
        return (
          `| ${filename} | ${sizeLabel(size)} | ${mib(bigPeak(report, filename, size))} | ` +
          `${peaks.length === 0 ? 'n/a' : `${spread(peaks, 0)} MiB`} | ${before.length === 0 ? 'n/a' : mib(median(before))} | ` +
          `${median(runs.map((run) => run.mibPerSecond)).toFixed(1)} |`
        );
      }),
    ),
  ];
}

type Row = [figure: string, service: string, baseline: string, ratio: string, target: string, met: string];

const yesNo = (ok: boolean | undefined) => (ok === undefined ? 'n/a' : ok ? 'yes' : 'no');

/** The figures of issue 14's "Numbers to reach", each from this run, beside its baseline and target. */
function summaryRows(report: OverviewReport): Row[] {
  const { settings: s } = report;
  const rows: Row[] = [];
  const bare = report.requests[0].runs;
  const asset = report.requests[1].runs;
  const rps = (runs: LoadFigures[]) => runs.map((run) => run.requestsPerSecond);
  const getRatio = pairedRatioValue(rps(asset), rps(bare));
  const getTarget = report.matrix === 'mysql' ? 0.35 : 0.5;
  rows.push([
    `GET /rest/assets/{id} req/s ÷ bare NestJS+Express endpoint reading one ${report.matrix === 'mysql' ? 'MySQL row (mysql2)' : 'SQLite row (better-sqlite3)'}, ${s.connections} connections`,
    `${median(rps(asset)).toFixed(0)} req/s`,
    `${median(rps(bare)).toFixed(0)} req/s`,
    getRatio.toFixed(2),
    `≥ ${getTarget.toFixed(2)}`,
    yesNo(getRatio >= getTarget),
  ]);
  const p99 = median(asset.map((run) => run.p99));
  rows.push([
    `GET /rest/assets/{id} p99 at ${s.connections} connections`,
    ms(p99),
    ms(median(bare.map((run) => run.p99))),
    '-',
    '≤ 30 ms',
    yesNo(p99 <= 30),
  ]);
  rows.push([
    'SQL statements per warm GET /rest/assets/{id}',
    'not measured here: `test/statement-count.e2e-spec.ts` counts them',
    '-',
    '-',
    '≤ 3',
    '(test)',
  ]);
  const sizes = s.memorySizes;
  const largest = sizes[sizes.length - 1];
  const smallest = sizes[0];
  const jpg = bigPeak(report, 'big.jpg', largest);
  const bin = bigPeak(report, 'big.bin', largest);
  const under = (bytes: number | undefined, mb: number) =>
    bytes === undefined ? undefined : bytes <= mb * 1e6;
  rows.push([
    `peak RSS of the service, ${sizeLabel(largest)} upload of \`big.jpg\` / of \`big.bin\` (random bytes)`,
    `${mibMb(jpg)} / ${mibMb(bin)}`,
    '-',
    '-',
    '≤ 200 MB both',
    yesNo(
      jpg === undefined || bin === undefined
        ? undefined
        : (under(jpg, 200) ?? false) && (under(bin, 200) ?? false),
    ),
  ]);
  if (sizes.length > 1) {
    const differences = ['big.jpg', 'big.bin'].map((filename) => {
      const low = bigPeak(report, filename, smallest);
      const high = bigPeak(report, filename, largest);
      return {
        filename,
        low,
        high,
        difference: low === undefined || high === undefined ? undefined : high - low,
      };
    });
    rows.push([
      `peak RSS, ${sizeLabel(smallest)} vs ${sizeLabel(largest)} upload`,
      differences
        .map(({ filename, low, high, difference }) =>
          difference === undefined
            ? `${filename}: n/a`
            : `${filename}: ${mib(low)} → ${mib(high)} (${difference / 1e6 >= 0.05 ? '+' : ''}${(Math.abs(difference / 1e6) < 0.05 ? 0 : difference / 1e6).toFixed(1)} MB)`,
        )
        .join('; '),
      '-',
      '-',
      'within 20 MB',
      yesNo(
        differences.some(({ difference }) => difference === undefined)
          ? undefined
          : differences.every(({ difference }) => Math.abs(difference ?? 0) <= 20e6),
      ),
    ]);
  }
  const idle = defined(report.starts.service.map((run) => run.idleRss));
  const bareIdle = defined(report.starts.bare.map((run) => run.idleRss));
  const idleMedian = idle.length === 0 ? undefined : median(idle);
  rows.push([
    `idle RSS after boot (VmRSS ${s.idleSettleMs / 1000} s after the first answer, median of ${s.starts} starts)`,
    mibMb(idleMedian),
    `${bareIdle.length === 0 ? 'n/a' : mibMb(median(bareIdle))} (bare app)`,
    '-',
    '≤ 110 MB',
    yesNo(under(idleMedian, 110)),
  ]);
  const copyOverCat = median(report.chunkRounds.map((round) => round.copyMs / round.catMs));
  rows.push([
    `final chunk copy ÷ \`cat\` of the chunks (${s.chunks} × ${sizeLabel(s.uploadBytes / s.chunks)}, same disk), time`,
    `${(median(report.chunkRounds.map((round) => round.copyMs)) / 1000).toFixed(2)} s`,
    `${(median(report.chunkRounds.map((round) => round.catMs)) / 1000).toFixed(2)} s`,
    `${copyOverCat.toFixed(1)}×`,
    '≤ 2×',
    yesNo(copyOverCat <= 2),
  ]);
  const [put, , , endToEnd] = report.uploads;
  const ratioRow = (figure: string, row: UploadRow, target: number): Row => {
    const ratio = pairedRatioValue(row.service, row.baseline ?? []);
    return [
      figure,
      `${median(row.service).toFixed(1)} MiB/s`,
      `${median(row.baseline ?? []).toFixed(1)} MiB/s`,
      ratio.toFixed(2),
      `≥ ${target.toFixed(2)}`,
      yesNo(ratio >= target),
    ];
  };
  rows.push(ratioRow('chunked upload end to end ÷ (chunk writes + `cat`)', endToEnd, 0.7));
  rows.push(ratioRow(`content PUT ÷ pipe+fsync (${sizeLabel(s.uploadBytes)})`, put, 0.8));
  const starts = report.starts.service.map((run) => run.firstAnswerMs / 1000);
  const bareStarts = report.starts.bare.map((run) => run.firstAnswerMs / 1000);
  rows.push([
    `cold start to first answer, built service (\`node dist/apps/api/src/main.js\`), median of ${s.starts} starts`,
    `${median(starts).toFixed(2)} s`,
    `${median(bareStarts).toFixed(2)} s (bare app)`,
    '-',
    '≤ 1.5 s',
    yesNo(median(starts) <= 1.5),
  ]);
  return rows;
}

function summaryTable(report: OverviewReport): string[] {
  return [
    '| figure | service | baseline (same run) | ratio | target | met |',
    '|---|---|---|---|---|---|',
    ...summaryRows(report).map((row) => `| ${row.join(' | ')} |`),
  ];
}

function commands(report: OverviewReport): string[] {
  const { settings: s, matrix } = report;
  const memoryMb = s.memorySizes.map((size) => size / MiB).join(',');
  const overrides = [
    s.rounds !== 5 && `BENCH_ROUNDS=${s.rounds}`,
    s.seconds !== 10 && `BENCH_SECONDS=${s.seconds}`,
    s.connections !== 32 && `BENCH_CONNECTIONS=${s.connections}`,
    s.uploadBytes !== 512 * MiB && `BENCH_UPLOAD_MB=${s.uploadBytes / MiB}`,
    s.chunks !== 32 && `BENCH_CHUNKS=${s.chunks}`,
    s.starts !== 5 && `BENCH_STARTS=${s.starts}`,
    memoryMb !== '256,1024' && `BENCH_MEMORY_MB=${memoryMb}`,
    s.memoryRounds !== 3 && `BENCH_MEMORY_ROUNDS=${s.memoryRounds}`,
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

function machine(report: OverviewReport): string[] {
  const cpus = os.cpus();
  const format = (load: number[]) => load.map((value) => value.toFixed(2)).join(' / ');
  const start = report.loads[0];
  const phases = report.loads
    .slice(1)
    .map(({ phase, load }) => `${phase} ${load[0].toFixed(2)}`)
    .join(', ');
  return [
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC (${report.minutes.toFixed(1)} minutes) on ${cpus.length} CPUs ` +
      `(${cpus[0]?.model ?? 'unknown'}), ${(os.totalmem() / 1024 ** 3).toFixed(0)} GiB RAM, ${os.type()} ${os.release()}, ` +
      `Node ${process.version}.`,
    '',
    `Machine load: load average at the start ${format(start.load)} (1/5/15 min); 1-minute load average when each ` +
      `phase began: ${phases}. Above 0 at the start means other work shared the cores; during the run the benchmark's ` +
      'own processes (2 on the cores at a time) raise it.',
  ];
}

export function renderOverview(report: OverviewReport): string {
  const { settings: s, memory } = report;
  const tree = s.tree.tops * (1 + s.tree.perTop * (1 + s.tree.perMiddle));
  const memorySizes = s.memorySizes.map(sizeLabel).join(' and ');
  return [
    `# Benchmark overview (${report.matrix})`,
    '',
    ...commands(report),
    '',
    ...machine(report),
    '',
    `Database and storage: **${report.describe}**. The service runs from the build (\`node dist/apps/api/src/main.js\`),`,
    'the bare endpoint as `node bench/bare-nest-app.js`, each in a process of its own; autocannon and the upload',
    'client run in the benchmark process. All share the same cores.',
    '',
    `Every request and upload figure is the median of ${s.rounds} rounds (the big uploads: ${s.memoryRounds} rounds; the starts:`,
    `${s.starts}); "all rounds" shows the lowest and highest. A round runs the service and its baseline back to back`,
    '(in reverse order every other round), and a ratio is the median of the per-round ratios, so that both sides',
    'of a ratio meet the same background load.',
    '',
    '## Issue 14 figures',
    '',
    ...summaryTable(report),
    '',
    'MB = 10^6 bytes (the targets), MiB = 2^20 bytes. Each figure comes from the tables below; the MySQL row of the issue',
    'comes from `npm run bench -- --mysql` (`latest-mysql.md`).',
    '',
    `## Cold start and idle memory (${s.starts} starts each, alternately)`,
    '',
    ...startTable(report),
    '',
    'First answer: from spawning `node` to the first HTTP answer (of any status) to a GET polled every 10 ms.',
    `Idle RSS: VmRSS ${s.idleSettleMs / 1000} s after that answer. The service runs with production defaults on one data folder.`,
    '',
    `## Requests (autocannon, ${s.connections} connections, ${s.seconds} s per run after a ${s.warmUpSeconds} s warm-up)`,
    '',
    ...requestTable(report),
    ...timeoutNote(report),
    '',
    'The asset has a small file and is read as the application user; the bare endpoint reads one row from a',
    'SQLite file of its own (WAL) with better-sqlite3, a prepared statement per request, and answers the document',
    `it holds: the same JSON as the asset. The search counts assets over ${tree} access levels (${s.tree.tops} x ${s.tree.perTop} x ${s.tree.perMiddle}) holding ${s.assets} assets.`,
    '',
    `## Uploads (${sizeLabel(s.uploadBytes)}, ${s.chunks} chunks of ${sizeLabel(s.uploadBytes / s.chunks)}, one request at a time)`,
    '',
    ...uploadTable(report.uploads),
    '',
    'The baselines fsync every file before they finish, as the fs storage adapter does with every object. The',
    'chunk baseline PUTs the same chunk bodies to the bare server, which keeps them as files; `cat` then joins them.',
    ...(report.matrix === 'mysql'
      ? [
          'On this matrix the service writes to the S3 server named above instead, and its baselines stay on disk.',
        ]
      : []),
    '',
    `## Memory during big uploads (${memorySizes}, each in a service started for it)`,
    '',
    ...bigUploadTable(report),
    '',
    'One upload at a time of random bytes, named `big.bin` or `big.jpg` (by the name,',
    "so the service tries an image rendition and reads embedded data). Before each upload the process's peak",
    'counter is reset (`/proc/<pid>/clear_refs`, once the service is up and the asset created); the peak is VmHWM read',
    `${s.afterUploadMs / 1000} s after the answer, so it covers the work done after the response too.`,
    '',
    '## Memory of the request service (resident set, from /proc)',
    '',
    '| process | after boot | peak by the end of the request rounds | peak over requests and uploads (VmHWM) |',
    '|---|---|---|---|',
    `| service | ${mib(memory.serviceBoot)} | ${mib(memory.servicePeakReads)} | ${mib(memory.servicePeak)} |`,
    `| bare NestJS app | ${mib(memory.bareBoot)} | ${mib(memory.barePeak)} | ${mib(memory.barePeak)} |`,
    '',
  ].join('\n');
}
