/**
 * Issue 30's numbers for `dam import`, side by side in one run on one service. BENCH_PARTS (`small`, or
 * `small,big`, or `big`) chooses the parts:
 * - small: importing BENCH_FILES (2000) files of BENCH_FILE_KB (50) KiB against the same client creating
 *   bare assets with one content PUT each and no metadata (POST /rest/assets + PUT content,
 *   BENCH_PARALLEL at a time, like the import's --parallel); files/s of each and the ratio (target >=
 *   0.5). Then re-running the same import (nothing sent) with one digest per lookup request
 *   (DAM_IMPORT_LOOKUP_BATCH=1, as before the batch lookup) and with the default batch, each against the
 *   first run's time (target <= 10%); and the folder walk plus the hashing alone (readFolder, hashFile
 *   4 at a time), to show they are not the cost.
 * - big: see bench/import-big.ts (4 files of 256 MiB: dam import against dam upload, and the client RSS).
 *
 *   npm run build && npx ts-node -r tsconfig-paths/register --transpile-only bench/import.bench.ts
 *
 * The service runs from the build in a child process (bench/bench-service.ts) on the DAM_TEST_MATRIX
 * database; the small part's import runs in this process (runImport, as `dam import` does). The two sets
 * of files have different bytes, so the import finds no duplicates of the baseline's. Writes
 * bench/results/import.md.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readFolder } from '../apps/cli/src/import/folder';
import { runImport } from '../apps/cli/src/import/import.command';
import { eachLimited } from '../apps/cli/src/transfer/connection';
import { hashFile } from '../apps/cli/src/upload/upload-client';
import { startBenchService } from './bench-service';
import { bigFiles, bigLines } from './import-big';

const FILES = Number(process.env.BENCH_FILES ?? 2000);
const FILE_KB = Number(process.env.BENCH_FILE_KB ?? 50);
const PARALLEL = Number(process.env.BENCH_PARALLEL ?? 4);
const PARTS = (process.env.BENCH_PARTS ?? 'small').split(',').map((part) => part.trim());

function folderOfRandomFiles(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-import-bench-'));
  for (let index = 0; index < FILES; index++) {
    const folder = path.join(root, `batch-${Math.floor(index / 100)}`);
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, `file-${index}.bin`), randomBytes(FILE_KB * 1024));
  }
  return root;
}

function filesBelow(root: string): string[] {
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .flatMap((entry) => (entry.isFile() ? [path.join(entry.parentPath, entry.name)] : []));
}

/** fetch, once more when the connection failed before an answer (a kept-alive socket closed meanwhile). */
async function fetchAgain(url: string, init: RequestInit): Promise<Response> {
  return fetch(url, init).catch(() => fetch(url, init));
}

/** The baseline: one bare asset and one content PUT per file, PARALLEL at a time. */
async function bareUploads(base: string, token: string, level: number, root: string): Promise<void> {
  const auth = { authorization: `Bearer ${token}` };
  await eachLimited(filesBelow(root), PARALLEL, async (file) => {
    const created = await fetchAgain(`${base}/rest/assets`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ accessLevels: [{ id: level }] }),
    });
    if (created.status !== 201) throw new Error(`POST /rest/assets: ${created.status}`);
    const { url } = (await created.json()) as { url: string };
    const put = await fetchAgain(`${url}/content`, {
      method: 'PUT',
      headers: {
        ...auth,
        'content-type': 'application/octet-stream',
        'content-disposition': `attachment; filename="${path.basename(file)}"`,
      },
      body: fs.readFileSync(file),
    });
    if (put.status !== 200) throw new Error(`PUT content: ${put.status}`);
  });
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

/** The walk and the hashing alone, as `dam import` does them before any request. */
async function walkAndHash(root: string): Promise<number> {
  return timed(async () => {
    const rows = await readFolder(root, false);
    await eachLimited(rows, 4, async (row) => {
      await hashFile(row.file, 8 * 1024 * 1024);
    });
  });
}

function statuses(report: string): string {
  const counts = new Map<string, number>();
  for (const line of fs.readFileSync(report, 'utf8').trim().split('\n').slice(1)) {
    const status = line.split(',')[1];
    counts.set(status, (counts.get(status) ?? 0) + 1);
  }
  return [...counts].map(([status, count]) => `${count} ${status}`).join(', ');
}

async function smallFiles(base: string, token: string, level: number): Promise<string[]> {
  const folders = [folderOfRandomFiles(), folderOfRandomFiles()];
  const reports = [0, 1, 2].map((run) => `${folders[1]}-${run}.csv`);
  try {
    const importOnce = async (report: string, env: Record<string, string> = {}) => {
      const io = {
        env: { DAM_URL: base, DAM_TOKEN: token, ...env },
        stdout: () => undefined,
        stderr: () => undefined,
      };
      const args = [folders[1], '--access-level', String(level), '--parallel', String(PARALLEL)];
      const code = await runImport([...args, '--report', report], io);
      if (code !== 0) throw new Error(`dam import exited ${code} (see ${report})`);
    };
    const bare = await timed(() => bareUploads(base, token, level, folders[0]));
    const first = await timed(() => importOnce(reports[0]));
    const oneByOne = await timed(() => importOnce(reports[1], { DAM_IMPORT_LOOKUP_BATCH: '1' }));
    const again = await timed(() => importOnce(reports[2]));
    const local = await walkAndHash(folders[1]);
    const rate = (seconds: number) => FILES / seconds;
    const share = (seconds: number) => `${((seconds / first) * 100).toFixed(0)}%`;
    return [
      `## Many small files: ${FILES} files of ${FILE_KB} KiB, ${PARALLEL} at a time (the client in the benchmark process)`,
      '',
      '| run | seconds | files/s | of the first import | report |',
      '|---|---|---|---|---|',
      `| bare: POST /rest/assets + PUT content per file | ${bare.toFixed(1)} | ${rate(bare).toFixed(0)} | | |`,
      `| dam import (hash, lookup, create, PUT with extractEmbeddedData) | ${first.toFixed(1)} | ${rate(first).toFixed(0)} | 100% | ${statuses(reports[0])} |`,
      `| dam import again, one digest per lookup (DAM_IMPORT_LOOKUP_BATCH=1, as before) | ${oneByOne.toFixed(1)} | ${rate(oneByOne).toFixed(0)} | ${share(oneByOne)} | ${statuses(reports[1])} |`,
      `| dam import again, 40 digests per lookup (the default) | ${again.toFixed(1)} | ${rate(again).toFixed(0)} | ${share(again)} | ${statuses(reports[2])} |`,
      `| the walk and the hashing alone (4 files at a time, no request) | ${local.toFixed(1)} | ${rate(local).toFixed(0)} | ${share(local)} | |`,
      '',
      `import/bare (files/s): **${(rate(first) / rate(bare)).toFixed(2)}** (target >= 0.5); ` +
        `re-run/first run (time): **${share(again)}** (target <= 10%; ${share(oneByOne)} with one digest per lookup)`,
    ];
  } finally {
    for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
    for (const report of reports) fs.rmSync(report, { force: true });
  }
}

async function main(): Promise<void> {
  const bench = await startBenchService();
  try {
    const base = bench.service.baseUrl;
    const answer = await fetch(`${base}/rest/access-levels`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bench.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench' }),
    });
    const level = ((await answer.json()) as { id: number }).id;
    const sections: string[][] = [];
    if (PARTS.includes('small')) sections.push(await smallFiles(base, bench.token, level));
    if (PARTS.includes('big')) sections.push(bigLines(await bigFiles(base, bench.token, level)));
    const env = PARTS.includes('big') ? `BENCH_PARTS=${PARTS.join(',')} ` : '';
    const lines = [
      '# dam import (issue 30)',
      '',
      `${new Date().toISOString()}, ${bench.describe}, ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(2)} at the end.`,
      '',
      ...sections.flatMap((section) => [...section, '']),
      `Command: \`npm run build && ${env}npx ts-node -r tsconfig-paths/register --transpile-only bench/import.bench.ts\``,
      '',
    ];
    console.log(lines.join('\n'));
    fs.writeFileSync(path.join(__dirname, 'results', 'import.md'), lines.join('\n'));
  } finally {
    await bench.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
