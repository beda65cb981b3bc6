/**
 * The upload steps the benchmarks time, as a client does them (bodies streamed from a deterministic
 * pseudo-random source, never held in memory), and the baselines they are set beside: a bare Node HTTP
 * server piping a body to disk (a child process), and the same server keeping chunk files that `cat`
 * then joins into one file.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import { pseudoRandomStream, streamRequest } from '../test/helpers/raw-http';
import { ServiceProcess } from '../test/helpers/service-process';

export const MiB = 1024 * 1024;

/** The headers of a content PUT of a file of that name (the API takes every file as application/octet-stream). */
function contentHeaders(filename: string): Record<string, string> {
  return {
    'content-type': 'application/octet-stream',
    'content-disposition': `attachment; filename="${filename}"`,
  };
}

export function mibPerSecond(bytes: number, ms: number): number {
  return bytes / MiB / (ms / 1000);
}

/** `count` chunk sizes adding up to `total`, all equal but the last. */
export function chunkSizes(total: number, count: number): number[] {
  const chunk = Math.ceil(total / count);
  return Array.from({ length: count }, (_, index) => Math.min(chunk, total - index * chunk));
}

async function ok(response: Response, what: string, status: number): Promise<Response> {
  if (response.status !== status)
    throw new Error(`${what} answered ${response.status} ${await response.text()}`);
  return response;
}

/** A new asset in the Default access level (or `accessLevelId`); its path, /rest/assets/{id}. */
export async function createAsset(base: string, token: string, accessLevelId = 1): Promise<string> {
  const response = await fetch(`${base}/rest/assets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ accessLevels: [{ id: accessLevelId }] }),
  });
  await ok(response, 'POST /rest/assets', 201);
  return new URL(response.headers.get('location') ?? '').pathname;
}

/** A PUT through `streamRequest` that must answer 200; the time it took in ms. */
async function timedPut(
  url: string,
  token: string | undefined,
  headers: Record<string, string>,
  body?: Readable,
): Promise<number> {
  const started = performance.now();
  const reply = await streamRequest('PUT', url, { token, body, headers });
  if (reply.status !== 200) throw new Error(`PUT ${url} answered ${reply.status} ${reply.text}`);
  return performance.now() - started;
}

/**
 * PUT /rest/assets/{id}/content with `size` streamed pseudo-random bytes as a file named `filename`
 * (big.bin unless told: the name, not the bytes, decides whether the service treats it as an image); the
 * time it took in ms.
 */
export function putContent(
  base: string,
  token: string,
  assetPath: string,
  size: number,
  filename = 'big.bin',
): Promise<number> {
  const headers = { ...contentHeaders(filename), 'content-length': String(size) };
  return timedPut(`${base}${assetPath}/content`, token, headers, pseudoRandomStream('bench', 0, size));
}

/** A temp chunked file with one chunk per size (`chunkBody` bytes); its URL. */
export async function uploadChunks(base: string, token: string, sizes: number[]): Promise<string> {
  const created = await fetch(`${base}/rest/temp-chunked-files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  await ok(created, 'POST /rest/temp-chunked-files', 201);
  const temp = created.headers.get('location') ?? '';
  for (const [index, size] of sizes.entries()) {
    const headers = { 'content-type': 'application/octet-stream', 'content-length': String(size) };
    await timedPut(`${temp}/${index}`, token, headers, chunkBody(index, size));
  }
  return temp;
}

/** The bytes of chunk `index`, the same for the service and for the `cat` baseline. */
function chunkBody(index: number, size: number) {
  return pseudoRandomStream('bench-chunks', index, size);
}

/** PUT content with X-Copy-Temp-Chunked-File (the chunks concatenated in storage); the time in ms. */
export function copyTempFile(base: string, token: string, assetPath: string, temp: string): Promise<number> {
  const headers = { ...contentHeaders('big.bin'), 'x-copy-temp-chunked-file': temp, 'content-length': '0' };
  return timedPut(`${base}${assetPath}/content`, token, headers);
}

export async function deleteTempFile(token: string, temp: string): Promise<void> {
  const response = await fetch(temp, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
  await ok(response, `DELETE ${temp}`, 204);
}

/**
 * The raw baseline server (bench/raw-pipe-server.js), in a process of its own like the service; `flush`
 * fsyncs each file before answering, as the fs storage adapter does. `keepDir`: the folder where PUTs to
 * /keep/<name> leave their files (rawChunksAndCat).
 */
export async function startRawPipeServer(flush: boolean, keepDir?: string): Promise<ServiceProcess> {
  const env: Record<string, string> = { RAW_FLUSH: String(flush) };
  if (keepDir !== undefined) env.RAW_DIR = keepDir;
  const server = new ServiceProcess(env, true, { args: ['bench/raw-pipe-server.js'], readyPath: '/' });
  await server.start();
  return server;
}

/** The raw baseline: `size` bytes PUT to the raw pipe server (to disk); the time in ms. */
export function rawPipeToDisk(server: ServiceProcess, size: number): Promise<number> {
  const headers = { 'content-length': String(size) };
  return timedPut(`${server.baseUrl}/`, undefined, headers, pseudoRandomStream('bench', 0, size));
}

/**
 * The chunked-upload baseline: the same chunk bodies PUT one after another to the raw pipe server, which
 * keeps each as a file in `keepDir` (fsynced, as the fs adapter stores a chunk), then `cat` of those files
 * into one file and an fsync of it (the fs adapter fsyncs the assembled object too). The times in ms of
 * the chunk writes and of `cat` + fsync; the files are removed.
 */
export async function rawChunksAndCat(
  server: ServiceProcess,
  keepDir: string,
  sizes: number[],
): Promise<{ chunksMs: number; catMs: number }> {
  const files = sizes.map((_, index) => path.join(keepDir, `chunk-${index}`));
  const all = path.join(keepDir, 'all');
  try {
    const started = performance.now();
    for (const [index, size] of sizes.entries()) {
      const headers = { 'content-length': String(size) };
      await timedPut(`${server.baseUrl}/keep/chunk-${index}`, undefined, headers, chunkBody(index, size));
    }
    const chunksMs = performance.now() - started;
    const out = fs.openSync(all, 'w');
    try {
      const catStarted = performance.now();
      await new Promise<void>((resolve, reject) => {
        const cat = spawn('cat', files, { stdio: ['ignore', out, 'inherit'] });
        cat.once('error', reject);
        cat.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`cat exited with ${code}`))));
      });
      fs.fsyncSync(out);
      return { chunksMs, catMs: performance.now() - catStarted };
    } finally {
      fs.closeSync(out);
    }
  } finally {
    for (const file of [...files, all]) fs.rmSync(file, { force: true });
  }
}
