import { ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import * as net from 'node:net';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import request from 'supertest';
import { FROM_SOURCES } from './from-sources';
import { TEST_COSTS } from './test-costs';

const ROOT = path.resolve(__dirname, '..', '..');

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

/** Another Node program to run in place of the API (a benchmark's baseline server), listening on PORT. */
export interface ProgramEntry {
  /** Arguments of `node`, relative to the repository root. */
  args: string[];
  /** Ready once a GET of this path answers 200. */
  readyPath: string;
}

/** The API as a separate process (from the sources, nothing built), so that it can be killed outright. */
export class ServiceProcess {
  private child: ChildProcess | undefined;
  baseUrl = '';
  /** Set before start(): keep what the process writes to stdout and stderr in `output`. */
  keepOutput = false;
  /** Set before start(): ready once a GET of this path answers 200 (a DAM_ROLE=worker process serves no /rest). */
  readyPath: string | undefined;
  /** Its output lines, each with the time it arrived (Date.now()). */
  readonly output: Array<{ at: number; line: string }> = [];

  /** `compiled`: run the build in dist/ (`npm run build` first) instead of the sources. */
  constructor(
    private readonly env: Record<string, string>,
    private readonly compiled = false,
    private readonly program?: ProgramEntry,
  ) {}

  async start(): Promise<void> {
    const port = await freePort();
    this.baseUrl = `http://127.0.0.1:${port}`;
    const entry =
      this.program?.args ??
      (this.compiled ? ['dist/apps/api/src/main.js'] : [...FROM_SOURCES, 'apps/api/src/main.ts']);
    this.child = spawn(process.execPath, entry, {
      cwd: ROOT,
      env: { ...process.env, ...TEST_COSTS, ...this.env, PORT: String(port) },
      stdio: this.keepOutput ? ['ignore', 'pipe', 'pipe'] : 'ignore',
    });
    for (const stream of [this.child.stdout, this.child.stderr]) {
      if (stream === null) continue;
      createInterface({ input: stream }).on('line', (line) => this.output.push({ at: Date.now(), line }));
    }
    const deadline = Date.now() + 90_000;
    for (;;) {
      const readyPath = this.program?.readyPath ?? this.readyPath;
      const ready = await fetch(`${this.baseUrl}${readyPath ?? '/rest'}`).then(
        (response) => response.status === (readyPath === undefined ? 401 : 200),
        () => false,
      );
      if (ready) return;
      if (Date.now() > deadline || this.child.exitCode !== null) throw new Error('the service did not start');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  /** Resident memory of the process in bytes (Linux /proc): its peak so far (VmHWM) or now (VmRSS). */
  async rss(field: 'VmHWM' | 'VmRSS' = 'VmHWM'): Promise<number | undefined> {
    const pid = this.child?.pid;
    if (pid === undefined) return undefined;
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status);
    return match === null ? undefined : Number(match[1]) * 1024;
  }

  /** The process id (undefined before start()). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** CPU time the process has used so far (user + system), in seconds (Linux /proc; undefined elsewhere). */
  async cpuSeconds(): Promise<number | undefined> {
    const pid = this.child?.pid;
    if (pid === undefined) return undefined;
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    // After "pid (comm) ": state is field 3, utime 14 and stime 15, in clock ticks (100 per second).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields.length < 13 ? undefined : (Number(fields[11]) + Number(fields[12])) / 100;
  }

  kill(): Promise<void> {
    const child = this.child;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }

  async token(clientId: string, clientSecret: string): Promise<string> {
    const response = await request(this.baseUrl)
      .post('/oauth/token')
      .type('form')
      .send({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret })
      .expect(200);
    return response.body.access_token as string;
  }
}
