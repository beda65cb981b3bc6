/**
 * The upload steps the benchmarks time, as a client does them (bodies streamed from a deterministic
 * pseudo-random source, never held in memory), and the baselines they are set beside: a bare Node HTTP
 * server piping a body to disk (a child process), and `cat` of chunk files into one file.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pseudoRandomStream, streamRequest } from '../test/helpers/raw-http';
import { ServiceProcess } from '../test/helpers/service-process';

export const MiB = 1024 * 1024;

const CONTENT_HEADERS = {
  'content-type': 'application/octet-stream',
  'content-disposition': 'attachment; filename="big.bin"',
};

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

/** PUT /rest/assets/{id}/content with `size` streamed bytes; the time it took in ms. */
export function putContent(base: string, token: string, assetPath: string, size: number): Promise<number> {
  const headers = { ...CONTENT_HEADERS, 'content-length': String(size) };
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
  const headers = { ...CONTENT_HEADERS, 'x-copy-temp-chunked-file': temp, 'content-length': '0' };
  return timedPut(`${base}${assetPath}/content`, token, headers);
}

export async function deleteTempFile(token: string, temp: string): Promise<void> {
  const response = await fetch(temp, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
  await ok(response, `DELETE ${temp}`, 204);
}

/**
 * The raw baseline server (bench/raw-pipe-server.js), in a process of its own like the service; `flush`
 * fsyncs each file before answering, as the fs storage adapter does.
 */
export async function startRawPipeServer(flush: boolean): Promise<ServiceProcess> {
  const server = new ServiceProcess({ RAW_FLUSH: String(flush) }, true, {
    args: ['bench/raw-pipe-server.js'],
    readyPath: '/',
  });
  await server.start();
  return server;
}

/** The raw baseline: `size` bytes PUT to the raw pipe server (to disk); the time in ms. */
export function rawPipeToDisk(server: ServiceProcess, size: number): Promise<number> {
  const headers = { 'content-length': String(size) };
  return timedPut(`${server.baseUrl}/`, undefined, headers, pseudoRandomStream('bench', 0, size));
}

/**
 * The assembly baseline: the chunks written as files (not timed), then `cat` of them into one file and
 * an fsync of it (the fs adapter fsyncs chunks and the assembled object alike); the time of `cat` + fsync in ms.
 */
export async function catChunks(sizes: number[]): Promise<number> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-bench-cat-'));
  try {
    const files = sizes.map((_, index) => path.join(folder, String(index)));
    for (const [index, size] of sizes.entries()) {
      await pipeline(chunkBody(index, size), fs.createWriteStream(files[index], { flush: true }));
    }
    const out = fs.openSync(path.join(folder, 'all'), 'w');
    try {
      const started = performance.now();
      await new Promise<void>((resolve, reject) => {
        const cat = spawn('cat', files, { stdio: ['ignore', out, 'inherit'] });
        cat.once('error', reject);
        cat.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`cat exited with ${code}`))));
      });
      fs.fsyncSync(out);
      return performance.now() - started;
    } finally {
      fs.closeSync(out);
    }
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}
