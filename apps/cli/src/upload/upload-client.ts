import { createHash } from 'node:crypto';
import { mkdir, open, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { attachment, DamHttp, digestField, RETRY_DELAYS_MS, UploadFailed } from './dam-http';

export { accessToken, UploadFailed } from './dam-http';

/**
 * The `dam upload` client: an HTTP client of the temp chunked file endpoints, nothing of the service's
 * own code (no Nest, no database). It reads the file once to hash it (per chunk and whole), creates a
 * temp chunked file (or, when a state file says one was started for this file and asset, asks which
 * chunks arrived intact), PUTs the missing chunks `parallel` at a time with a Content-Digest each, and
 * makes the temp file the asset's content with a Repr-Digest. The state file lives in ~/.dam/uploads.
 */
export interface UploadOptions {
  baseUrl: string;
  token: string;
  file: string;
  assetId: number;
  chunkSize: number;
  parallel: number;
  asNewVersion: boolean;
  /** Where state files live (default ~/.dam/uploads). */
  stateDir?: string;
  /** Attempts per request when the network or the server (5xx) fails. */
  attempts?: number;
  /** `extractEmbeddedData=true` on the content PUT (`dam import`). */
  extractEmbeddedData?: boolean;
  /** The file's hashes when the caller has read it already (same chunk size), so it is not read twice. */
  hashes?: FileHashes;
  progress: UploadProgress;
}

export interface FileHashes {
  sha256: string;
  chunks: Array<{ size: number; sha256: string }>;
}

export interface UploadProgress {
  /** Hashing is done: `total` chunks, `present` of them already on the server. */
  start(total: number, present: number, bytes: number, presentBytes: number): void;
  chunkSent(index: number, size: number): void;
  stop(): void;
}

export interface UploadResult {
  assetUrl: string;
  sha256: string;
  /** Chunks sent by this run (the others were on the server already). */
  sent: number;
  total: number;
}

interface UploadState {
  tempFileUrl: string;
  size: number;
  mtimeMs: number;
  chunkSize: number;
}

interface ChunkSummary {
  index: number;
  size: number;
  sha256: string | null;
}

export async function uploadFile(options: UploadOptions): Promise<UploadResult> {
  const file = await realpath(options.file);
  const { size, mtimeMs } = await stat(file);
  if (size === 0) throw new UploadFailed(`${options.file} is empty`);
  const http = new DamHttp(options.token, options.attempts ?? RETRY_DELAYS_MS.length + 1);
  const hashes = options.hashes ?? (await hashFile(file, options.chunkSize));
  const statePath = path.join(
    options.stateDir ?? path.join(os.homedir(), '.dam', 'uploads'),
    `${sha256Hex(`${options.baseUrl}\n${options.assetId}\n${file}`)}.json`,
  );
  const state = await readState(statePath, { size, mtimeMs, chunkSize: options.chunkSize });
  const present = new Set<number>();
  let tempFileUrl = state?.tempFileUrl;
  if (tempFileUrl !== undefined) {
    const listed = await http.json<ChunkSummary[]>('GET', `${tempFileUrl}/chunks`, { allow404: true });
    if (listed === undefined) tempFileUrl = undefined; // purged meanwhile: start over
    for (const chunk of listed ?? []) {
      const expected = hashes.chunks[chunk.index];
      if (expected !== undefined && chunk.size === expected.size && chunk.sha256 === expected.sha256) {
        present.add(chunk.index);
      }
    }
  }
  if (tempFileUrl === undefined) {
    const created = await http.json<{ url: string }>('POST', `${options.baseUrl}/rest/temp-chunked-files`);
    tempFileUrl = created?.url ?? '';
    await writeState(statePath, { tempFileUrl, size, mtimeMs, chunkSize: options.chunkSize });
  }
  const missing = hashes.chunks.map((_, index) => index).filter((index) => !present.has(index));
  const presentBytes = [...present].reduce((sum, index) => sum + hashes.chunks[index].size, 0);
  options.progress.start(hashes.chunks.length, present.size, size, presentBytes);
  try {
    const handle = await open(file, 'r');
    try {
      // Each chunk is read from the file as its request is written (FileRange), a small piece at a time:
      // memory does not grow with the chunk size, the file's size or --parallel's chunks in flight. Its
      // Content-Digest is the hashing pass's: a file changed since then is refused (400), not stored.
      await inParallel(missing, options.parallel, async (index) => {
        const chunk = hashes.chunks[index];
        await http.send('PUT', `${tempFileUrl}/${index}`, {
          body: { handle, start: index * options.chunkSize, length: chunk.size },
          headers: {
            'Content-Type': 'application/octet-stream',
            'Content-Digest': digestField(Buffer.from(chunk.sha256, 'hex')),
          },
        });
        options.progress.chunkSent(index, chunk.size);
      });
    } finally {
      await handle.close();
    }
    const assetUrl = `${options.baseUrl}/rest/assets/${options.assetId}`;
    const query = options.extractEmbeddedData === true ? '?extractEmbeddedData=true' : '';
    const answer = await http.send('PUT', `${assetUrl}/content${query}`, {
      headers: {
        'Content-Type': 'application/octet-stream',
        'Content-Disposition': attachment(path.basename(options.file)),
        'X-Copy-Temp-Chunked-File': tempFileUrl,
        'Repr-Digest': digestField(Buffer.from(hashes.sha256, 'hex')),
        ...(options.asNewVersion ? { 'Upload-As-New-Version': 'true' } : {}),
      },
    });
    const stored = answer.headers.get('repr-digest');
    if (stored !== null && stored !== digestField(Buffer.from(hashes.sha256, 'hex'))) {
      throw new UploadFailed(`the server stored other bytes (Repr-Digest ${stored})`);
    }
    // Done: the temp file and the state go (a failure here only leaves them to the purge).
    await http.send('DELETE', tempFileUrl).catch(() => undefined);
    await rm(statePath, { force: true });
    return { assetUrl, sha256: hashes.sha256, sent: missing.length, total: hashes.chunks.length };
  } finally {
    options.progress.stop();
  }
}

/** The SHA-256 of each chunk and of the whole file, in one sequential read. */
export async function hashFile(file: string, chunkSize: number): Promise<FileHashes> {
  const whole = createHash('sha256');
  const chunks: Array<{ size: number; sha256: string }> = [];
  let current = createHash('sha256');
  let filled = 0;
  // One buffer, reused: reading a big file leaves no garbage behind.
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(Math.max(1, Math.min(1024 * 1024, (await handle.stat()).size)));
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      hashPiece(buffer.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
  if (filled > 0) chunks.push({ size: filled, sha256: current.digest('hex') });
  return { sha256: whole.digest('hex'), chunks };

  function hashPiece(piece: Buffer): void {
    whole.update(piece);
    for (let offset = 0; offset < piece.length;) {
      const take = Math.min(piece.length - offset, chunkSize - filled);
      current.update(piece.subarray(offset, offset + take));
      filled += take;
      offset += take;
      if (filled === chunkSize) {
        chunks.push({ size: filled, sha256: current.digest('hex') });
        current = createHash('sha256');
        filled = 0;
      }
    }
  }
}

/** The state of an earlier run for the same file, if the file has not changed since. */
async function readState(
  file: string,
  expected: Omit<UploadState, 'tempFileUrl'>,
): Promise<UploadState | undefined> {
  try {
    const state = JSON.parse(await readFile(file, 'utf8')) as UploadState;
    const same =
      typeof state.tempFileUrl === 'string' &&
      state.size === expected.size &&
      state.mtimeMs === expected.mtimeMs &&
      state.chunkSize === expected.chunkSize;
    return same ? state : undefined;
  } catch {
    return undefined;
  }
}

async function writeState(file: string, state: UploadState): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(state));
}

async function inParallel<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const item = items[next++];
      try {
        await work(item);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const results = await Promise.allSettled(Array.from({ length: Math.min(limit, items.length) }, worker));
  const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failure !== undefined) throw failure.reason;
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
