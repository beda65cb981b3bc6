import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { setPriority } from 'node:os';

/** The niceness of decoder children: below the service, so a transcode never starves requests. */
export const DECODER_NICENESS = 10;
/** The tail of a child's stderr kept for parsing and for the log. */
const STDERR_KEEP = 64 * 1024;
/** How often a child's resident memory is read (Linux `/proc`; elsewhere only the time limit applies). */
const MEMORY_CHECK_MS = 200;

/** Why a decoder child gave no result; `timedOut` children count apart in the metrics. */
export class DecoderFailed extends Error {
  constructor(
    message: string,
    readonly timedOut = false,
  ) {
    super(message);
  }
}

export interface ChildLimits {
  timeoutMs: number;
  maxMemoryBytes: number;
}

export interface ChildResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a decoder (ffmpeg, the PDF renderer) as a child process at a lower priority, killed when it runs
 * longer than `timeoutMs` or its resident memory passes `maxMemoryBytes`: the file is never decoded in
 * the service's heap, and a hostile file costs at most that. Resolves with the exit code and the tails
 * of its output; rejects with `DecoderFailed` when it was killed or could not start.
 */
export function runDecoder(command: string, args: string[], limits: ChildLimits): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let killedFor: DecoderFailed | undefined;
    const kill = (reason: DecoderFailed) => {
      killedFor ??= reason;
      child.kill('SIGKILL');
    };
    lowerPriority(child.pid);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout = (stdout + chunk).slice(-STDERR_KEEP);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_KEEP);
    });
    const timer = setTimeout(
      () => kill(new DecoderFailed(`killed after the time limit of ${limits.timeoutMs / 1000} s`, true)),
      limits.timeoutMs,
    );
    const watch = setInterval(() => {
      void residentBytes(child.pid).then((bytes) => {
        if (bytes !== undefined && bytes > limits.maxMemoryBytes)
          kill(new DecoderFailed(`killed at ${Math.round(bytes / 2 ** 20)} MB, over the memory limit`));
      });
    }, MEMORY_CHECK_MS);
    const done = () => {
      clearTimeout(timer);
      clearInterval(watch);
    };
    child.once('error', (error) => {
      done();
      reject(new DecoderFailed(`${command} could not start: ${error.message}`));
    });
    child.once('close', (code) => {
      done();
      if (killedFor !== undefined) reject(killedFor);
      else resolve({ code, stdout, stderr });
    });
  });
}

/** Sets a decoder child's niceness to DECODER_NICENESS where permitted. */
export function lowerPriority(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    setPriority(pid, DECODER_NICENESS);
  } catch {
    // Not permitted here (some containers): the thread limit still applies.
  }
}

/** VmRSS of a process from `/proc`, undefined where it cannot be read. */
export async function residentBytes(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const match = /VmRSS:\s+(\d+) kB/.exec(status);
    return match === null ? undefined : Number(match[1]) * 1024;
  } catch {
    return undefined;
  }
}
