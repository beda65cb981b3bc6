import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { ChildLimits, DecoderFailed, lowerPriority, residentBytes } from './decoder-child';
import { PDF_RENDERER_PROGRAM } from './pdf-renderer-program';

/** A renderer left idle this long exits; the next PDF starts a new one. */
export const RENDERER_IDLE_MS = 5 * 60_000;
/** A renderer is replaced after this many documents, or once it holds half its memory limit. */
const RENDERER_MAX_DOCUMENTS = 100;
/** How often a busy renderer's resident memory is read. */
const MEMORY_CHECK_MS = 200;
const STDERR_KEEP = 16 * 1024;

/** A PDF's first page as raw RGBA pixels in a file. */
export interface PdfPage {
  pages: number;
  width: number;
  height: number;
}

export interface PdfRequest {
  box: number;
  maxPages: number;
  maxPixels: number;
}

/** Where the renderer's files are (resolved once: jest, ts-node and the build all find them this way). */
function rendererArguments(): string[] {
  const main = require.resolve('pdfjs-dist/legacy/build/pdf.mjs');
  const root = path.resolve(path.dirname(main), '..', '..');
  return [
    pathToFileURL(main).href,
    pathToFileURL(require.resolve('pdfjs-dist/legacy/build/pdf.worker.mjs')).href,
    pathToFileURL(require.resolve('@napi-rs/canvas')).href,
    path.join(root, 'standard_fonts') + path.sep,
  ];
}

/**
 * One long-lived renderer child (`PDF_RENDERER_PROGRAM`): started once, it renders document after
 * document, so each PDF after the first skips Node's start and PDF.js's load. One request at a time; a
 * request past the time limit or the memory limit kills the child (the next PDF starts another).
 */
class RendererChild {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly answers: string[] = [];
  private waiting: ((line: string | undefined) => void) | undefined;
  private stderr = '';
  private exited = false;
  documents = 0;
  idleTimer: NodeJS.Timeout | undefined;

  constructor() {
    this.child = spawn(
      process.execPath,
      ['--max-old-space-size=256', '--input-type=module', '-e', PDF_RENDERER_PROGRAM, ...rendererArguments()],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    lowerPriority(this.child.pid);
    // Never what keeps the service's process alive.
    this.child.unref();
    for (const stream of [this.child.stdin, this.child.stdout, this.child.stderr])
      (stream as unknown as { unref?: () => void }).unref?.();
    createInterface({ input: this.child.stdout }).on('line', (line) => this.deliver(line));
    this.child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-STDERR_KEEP);
    });
    this.child.once('error', () => this.ended());
    this.child.once('close', () => this.ended());
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** Sends one request and waits for its answer; kills the child past a limit. */
  async request(message: object, limits: ChildLimits): Promise<Record<string, unknown>> {
    this.documents += 1;
    let killedFor: DecoderFailed | undefined;
    const kill = (reason: DecoderFailed) => {
      killedFor ??= reason;
      this.kill();
    };
    const timer = setTimeout(
      () => kill(new DecoderFailed(`killed after the time limit of ${limits.timeoutMs / 1000} s`, true)),
      limits.timeoutMs,
    );
    const watch = setInterval(() => {
      void residentBytes(this.child.pid).then((bytes) => {
        if (bytes !== undefined && bytes > limits.maxMemoryBytes)
          kill(new DecoderFailed(`killed at ${Math.round(bytes / 2 ** 20)} MB, over the memory limit`));
      });
    }, MEMORY_CHECK_MS);
    try {
      if (!this.exited) this.child.stdin.write(JSON.stringify(message) + '\n');
      const line = await this.nextLine();
      if (killedFor !== undefined) throw killedFor;
      if (line === undefined) throw new DecoderFailed(`the PDF renderer stopped: ${this.reason()}`);
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new DecoderFailed(`the PDF renderer answered ${line.slice(0, 100)}`);
      }
    } finally {
      clearTimeout(timer);
      clearInterval(watch);
    }
  }

  /** True when it should not take another document (too many done, or grown past half the limit). */
  async worn(limits: ChildLimits): Promise<boolean> {
    if (this.exited || this.documents >= RENDERER_MAX_DOCUMENTS) return true;
    const bytes = await residentBytes(this.child.pid);
    return bytes !== undefined && bytes > limits.maxMemoryBytes / 2;
  }

  kill(): void {
    clearTimeout(this.idleTimer);
    if (!this.exited) this.child.kill('SIGKILL');
  }

  private nextLine(): Promise<string | undefined> {
    const line = this.answers.shift();
    if (line !== undefined || this.exited) return Promise.resolve(line);
    return new Promise((resolve) => (this.waiting = resolve));
  }

  private deliver(line: string | undefined): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting !== undefined) waiting(line);
    else if (line !== undefined) this.answers.push(line);
  }

  private ended(): void {
    this.exited = true;
    clearTimeout(this.idleTimer);
    this.deliver(undefined);
  }

  private reason(): string {
    const line = this.stderr
      .trim()
      .split('\n')
      .find((text) => /Error|error/.test(text));
    return (line ?? `exit code ${this.child.exitCode}`).slice(0, 300);
  }
}

/**
 * Renders PDFs' first pages in renderer children kept between files (a pool: one per rendition running
 * at once), each in its own heap, niced, killed after the time limit or past the memory limit, replaced
 * after `RENDERER_MAX_DOCUMENTS` documents, and ended after `RENDERER_IDLE_MS` without work.
 */
export class PdfRenderers {
  private readonly idle: RendererChild[] = [];

  constructor(private readonly limits: ChildLimits) {}

  /**
   * The first page of the PDF at `input`, fitted inside `box`×`box`, as raw RGBA pixels written to
   * `output`. Rejects with `DecoderFailed` for a PDF it cannot read or refuses (too many pages,
   * JavaScript), or that passes a limit.
   */
  async render(input: string, output: string, request: PdfRequest): Promise<PdfPage> {
    const child = this.take();
    let answer: Record<string, unknown>;
    try {
      answer = await child.request({ input, output, ...request }, this.limits);
    } catch (error) {
      child.kill();
      throw error;
    }
    // Back in the pool before this answers, so that the next PDF finds it.
    await this.giveBack(child);
    if (typeof answer.refused === 'string') throw new DecoderFailed(`refused: ${answer.refused}`);
    const { pages, width, height } = answer;
    if (typeof pages !== 'number' || typeof width !== 'number' || typeof height !== 'number') {
      const reason = typeof answer.error === 'string' ? answer.error : 'no answer';
      throw new DecoderFailed(`the PDF could not be rendered: ${reason}`);
    }
    return { pages, width, height };
  }

  /** The process ids of the renderers waiting for work. */
  get idlePids(): Array<number | undefined> {
    return this.idle.map((child) => child.pid);
  }

  /** Ends the idle renderers (the service is stopping). */
  close(): void {
    for (const child of this.idle.splice(0)) child.kill();
  }

  private take(): RendererChild {
    for (let child = this.idle.pop(); child !== undefined; child = this.idle.pop()) {
      clearTimeout(child.idleTimer);
      if (child.alive) return child;
    }
    return new RendererChild();
  }

  private async giveBack(child: RendererChild): Promise<void> {
    if (await child.worn(this.limits)) return child.kill();
    child.idleTimer = setTimeout(() => {
      const at = this.idle.indexOf(child);
      if (at >= 0) this.idle.splice(at, 1);
      child.kill();
    }, RENDERER_IDLE_MS).unref();
    this.idle.push(child);
  }
}
