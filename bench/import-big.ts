/**
 * The big-file part of bench/import.bench.ts (issue 30): BENCH_BIG_FILES (4) files of BENCH_BIG_MB (256)
 * MiB of random bytes imported by `dam import` (the build's CLI as a child process, default settings:
 * files hashed ahead, one big file at a time in 8 MiB chunks, 4 at a time), then the same files sent by `dam upload` (the same build) one after
 * another into bare assets made beforehand (their creation is not timed; the import's is). The import
 * runs first: `dam upload` keeps the file name, so afterwards the import would find every file unchanged.
 * Each client's peak RSS is its maximum resident set as /usr/bin/time reports it (target < 150 MB).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const MiB = 1024 * 1024;
export const BIG_FILES = Number(process.env.BENCH_BIG_FILES ?? 4);
export const BIG_MB = Number(process.env.BENCH_BIG_MB ?? 256);
const CLI = path.join(__dirname, '..', 'dist', 'apps', 'cli', 'src', 'main.js');

export interface BigResult {
  importSeconds: number;
  importPeakMb: number;
  uploadSeconds: number;
  uploadPeakMb: number;
  report: string;
}

/** The CLI as a child process under /usr/bin/time: its exit code, stderr and peak RSS (MB). */
async function cli(
  args: string[],
  env: Record<string, string>,
): Promise<{ seconds: number; peakMb: number }> {
  const start = process.hrtime.bigint();
  const child = spawn('/usr/bin/time', ['-f', 'max-rss-kb %M', process.execPath, CLI, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (code !== 0) throw new Error(`dam ${args[0]} exited ${code}: ${stderr.slice(-2000)}`);
  const peakKb = Number(/max-rss-kb (\d+)/.exec(stderr)?.[1] ?? NaN);
  return { seconds, peakMb: (peakKb * 1024) / 1e6 };
}

async function writeRandomFile(file: string): Promise<void> {
  const out = fs.createWriteStream(file);
  for (let written = 0; written < BIG_MB; written++) {
    if (!out.write(randomBytes(MiB))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

export async function bigFiles(base: string, token: string, level: number): Promise<BigResult> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-import-big-'));
  const report = `${root}.csv`;
  try {
    const files: string[] = [];
    for (let index = 0; index < BIG_FILES; index++) {
      files.push(path.join(root, `big-${index}.bin`));
      await writeRandomFile(files[index]);
    }
    const env = { DAM_URL: base, DAM_TOKEN: token };
    const imported = await cli(['import', root, '--access-level', String(level), '--report', report], env);
    const assets: number[] = [];
    for (let index = 0; index < BIG_FILES; index++) {
      const created = await fetch(`${base}/rest/assets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ accessLevels: [{ id: level }] }),
      });
      assets.push(((await created.json()) as { id: number }).id);
    }
    let uploadSeconds = 0;
    let uploadPeakMb = 0;
    for (let index = 0; index < BIG_FILES; index++) {
      const run = await cli(['upload', files[index], '--asset', String(assets[index])], env);
      uploadSeconds += run.seconds;
      uploadPeakMb = Math.max(uploadPeakMb, run.peakMb);
    }
    const statuses = fs
      .readFileSync(report, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(',')[1]);
    return {
      importSeconds: imported.seconds,
      importPeakMb: imported.peakMb,
      uploadSeconds,
      uploadPeakMb,
      report: `${statuses.filter((status) => status === 'created').length} created of ${statuses.length}`,
    };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(report, { force: true });
  }
}

/** The report's lines of the big part. */
export function bigLines(result: BigResult): string[] {
  const rate = (seconds: number) => ((BIG_FILES * BIG_MB) / seconds).toFixed(0);
  return [
    `## Big files: ${BIG_FILES} files of ${BIG_MB} MiB (the build's CLI as a child process)`,
    '',
    '| run | seconds | MiB/s | client peak RSS (MB) | report |',
    '|---|---|---|---|---|',
    `| dam upload, one file after another (4 chunks of 8 MiB at a time) | ${result.uploadSeconds.toFixed(1)} | ${rate(result.uploadSeconds)} | ${result.uploadPeakMb.toFixed(0)} | |`,
    `| dam import of the folder (hashed ahead; one big file at a time, 4 chunks of 8 MiB at a time) | ${result.importSeconds.toFixed(1)} | ${rate(result.importSeconds)} | ${result.importPeakMb.toFixed(0)} | ${result.report} |`,
    '',
    `import/upload (MiB/s): **${(result.uploadSeconds / result.importSeconds).toFixed(2)}** (target >= 0.8); ` +
      `import's peak RSS **${result.importPeakMb.toFixed(0)} MB** (target < 150 MB)`,
  ];
}
