/**
 * Issue 30's numbers for `dam import`, side by side in one run on one service:
 * - many small files: importing BENCH_FILES (2000) files of BENCH_FILE_KB (50) KiB against the same client
 *   creating bare assets with one content PUT each and no metadata (POST /rest/assets + PUT content,
 *   BENCH_PARALLEL at a time, like the import's --parallel); files/s of each and the ratio (target >= 0.5);
 * - re-running the same import: nothing sent, its time against the first run's (target <= 10%).
 *
 *   npm run build && npx ts-node -r tsconfig-paths/register --transpile-only bench/import.bench.ts
 *
 * The service runs from the build in a child process (bench/bench-service.ts) on the DAM_TEST_MATRIX
 * database; the import runs in this process (runImport, as `dam import` does). The two sets of files have
 * different bytes, so the import finds no duplicates of the baseline's. Writes bench/results/import.md.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runImport } from '../apps/cli/src/import/import.command';
import { eachLimited } from '../apps/cli/src/transfer/connection';
import { startBenchService } from './bench-service';

const FILES = Number(process.env.BENCH_FILES ?? 2000);
const FILE_KB = Number(process.env.BENCH_FILE_KB ?? 50);
const PARALLEL = Number(process.env.BENCH_PARALLEL ?? 4);

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

/** The baseline: one bare asset and one content PUT per file, PARALLEL at a time. */
async function bareUploads(base: string, token: string, level: number, root: string): Promise<void> {
  const auth = { authorization: `Bearer ${token}` };
  await eachLimited(filesBelow(root), PARALLEL, async (file) => {
    const created = await fetch(`${base}/rest/assets`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ accessLevels: [{ id: level }] }),
    });
    if (created.status !== 201) throw new Error(`POST /rest/assets: ${created.status}`);
    const { url } = (await created.json()) as { url: string };
    const put = await fetch(`${url}/content`, {
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

async function main(): Promise<void> {
  const bench = await startBenchService();
  const folders = [folderOfRandomFiles(), folderOfRandomFiles()];
  try {
    const base = bench.service.baseUrl;
    const answer = await fetch(`${base}/rest/access-levels`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bench.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench' }),
    });
    const level = ((await answer.json()) as { id: number }).id;
    const reports = folders.map((folder) => `${folder}.csv`);
    const importOnce = async (report: string) => {
      const io = {
        env: { DAM_URL: base, DAM_TOKEN: bench.token },
        stdout: () => undefined,
        stderr: () => undefined,
      };
      const args = [
        folders[1],
        '--access-level',
        String(level),
        '--parallel',
        String(PARALLEL),
        '--report',
        report,
      ];
      const code = await runImport(args, io);
      if (code !== 0) throw new Error(`dam import exited ${code} (see ${report})`);
    };
    const bare = await timed(() => bareUploads(base, bench.token, level, folders[0]));
    const first = await timed(() => importOnce(reports[0]));
    const again = await timed(() => importOnce(reports[1]));
    const statuses = (report: string) => {
      const counts = new Map<string, number>();
      for (const line of fs.readFileSync(report, 'utf8').trim().split('\n').slice(1)) {
        const status = line.split(',')[1];
        counts.set(status, (counts.get(status) ?? 0) + 1);
      }
      return [...counts].map(([status, count]) => `${count} ${status}`).join(', ');
    };
    const rate = (seconds: number) => FILES / seconds;
    const lines = [
      '# dam import: many small files (issue 30)',
      '',
      `${new Date().toISOString()}, ${bench.describe}, ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(2)} at the end;`,
      `${FILES} files of ${FILE_KB} KiB, ${PARALLEL} at a time; the client in the benchmark process.`,
      '',
      '| run | seconds | files/s | report |',
      '|---|---|---|---|',
      `| bare: POST /rest/assets + PUT content per file | ${bare.toFixed(1)} | ${rate(bare).toFixed(0)} | |`,
      `| dam import (hash, lookup, create, PUT with extractEmbeddedData) | ${first.toFixed(1)} | ${rate(first).toFixed(0)} | ${statuses(reports[0])} |`,
      `| dam import again (nothing sent) | ${again.toFixed(1)} | ${rate(again).toFixed(0)} | ${statuses(reports[1])} |`,
      '',
      `import/bare (files/s): **${(rate(first) / rate(bare)).toFixed(2)}** (target >= 0.5); ` +
        `re-run/first run (time): **${((again / first) * 100).toFixed(0)}%** (target <= 10%)`,
      '',
      'Command: `npm run build && npx ts-node -r tsconfig-paths/register --transpile-only bench/import.bench.ts`',
      '',
    ];
    console.log(lines.join('\n'));
    fs.writeFileSync(path.join(__dirname, 'results', 'import.md'), lines.join('\n'));
  } finally {
    for (const folder of folders) {
      fs.rmSync(folder, { recursive: true, force: true });
      fs.rmSync(`${folder}.csv`, { force: true });
    }
    await bench.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
