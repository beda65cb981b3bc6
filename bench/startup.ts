/**
 * Cold start and idle memory of a Node program run as in production (plain `node`, a process of its own):
 * the time from spawning it to its first HTTP answer (any status), polled every 10 ms, and its resident set
 * (VmRSS from /proc) a while after that answer, when the boot's garbage has had a chance to go.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import * as net from 'node:net';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';

const ROOT = path.resolve(__dirname, '..');

export interface StartFigures {
  /** ms from spawn to the first answer. */
  firstAnswerMs: number;
  /** VmRSS in bytes `settleMs` after the first answer. */
  idleRss: number | undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number | undefined> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status);
  return match === null ? undefined : Number(match[1]) * 1024;
}

/**
 * Starts `node <args>` (relative to the repository root) with `env` and a free PORT, waits for the first
 * answer to GET `readyPath`, waits `settleMs`, reads VmRSS and kills the process.
 */
export async function measureStart(options: {
  args: string[];
  env: Record<string, string>;
  readyPath: string;
  settleMs: number;
}): Promise<StartFigures> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}${options.readyPath}`;
  const started = performance.now();
  const child = spawn(process.execPath, options.args, {
    cwd: ROOT,
    env: { ...process.env, ...options.env, PORT: String(port) },
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const answered = await fetch(url).then(
        async (response) => {
          await response.arrayBuffer();
          return true;
        },
        () => false,
      );
      if (answered) break;
      if (child.exitCode !== null)
        throw new Error(`node ${options.args.join(' ')} exited with ${child.exitCode}`);
      if (Date.now() > deadline) throw new Error(`node ${options.args.join(' ')} did not answer within 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const firstAnswerMs = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, options.settleMs));
    const idleRss = child.pid === undefined ? undefined : await statusField(child.pid, 'VmRSS');
    return { firstAnswerMs, idleRss };
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  }
}
