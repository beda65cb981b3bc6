import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';

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
  progress: UploadProgress;
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

/** A request the server refused (4xx) or kept failing (5xx, network): the message says which and why. */
export class UploadFailed extends Error {}

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

const RETRY_DELAYS_MS = [500, 1500, 4000];

export async function uploadFile(options: UploadOptions): Promise<UploadResult> {
  const file = await realpath(options.file);
  const { size, mtimeMs } = await stat(file);
  if (size === 0) throw new UploadFailed(`${options.file} is empty`);
  const http = new DamHttp(options.token, options.attempts ?? RETRY_DELAYS_MS.length + 1);
  const hashes = await hashFile(file, options.chunkSize);
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
      await inParallel(missing, options.parallel, async (index) => {
        const bytes = Buffer.alloc(hashes.chunks[index].size);
        await handle.read(bytes, 0, bytes.length, index * options.chunkSize);
        await http.send('PUT', `${tempFileUrl}/${index}`, {
          body: bytes,
          headers: {
            'Content-Type': 'application/octet-stream',
            'Content-Digest': digestField(createHash('sha256').update(bytes).digest()),
          },
        });
        options.progress.chunkSent(index, bytes.length);
      });
    } finally {
      await handle.close();
    }
    const assetUrl = `${options.baseUrl}/rest/assets/${options.assetId}`;
    const answer = await http.send('PUT', `${assetUrl}/content`, {
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
async function hashFile(
  file: string,
  chunkSize: number,
): Promise<{ sha256: string; chunks: Array<{ size: number; sha256: string }> }> {
  const whole = createHash('sha256');
  const chunks: Array<{ size: number; sha256: string }> = [];
  let current = createHash('sha256');
  let filled = 0;
  for await (const piece of createReadStream(file, { highWaterMark: 1024 * 1024 }) as AsyncIterable<Buffer>) {
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
  if (filled > 0) chunks.push({ size: filled, sha256: current.digest('hex') });
  return { sha256: whole.digest('hex'), chunks };
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

/** RFC 9530 `sha-256=:<base64>:`. */
function digestField(sha256: Buffer): string {
  return `sha-256=:${sha256.toString('base64')}:`;
}

/** `attachment; filename="..."` with an RFC 8187 `filename*` for names that are not plain ASCII. */
function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return ascii === name
    ? `attachment; filename="${name}"`
    : `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** fetch with the bearer token, retries of network failures and 5xx, and readable errors. */
class DamHttp {
  constructor(
    private readonly token: string,
    private readonly attempts: number,
  ) {}

  async json<T>(method: string, url: string, options: { allow404?: boolean } = {}): Promise<T | undefined> {
    const answer = await this.send(method, url, {
      headers: { Accept: 'application/json' },
      allow404: options.allow404,
    });
    if (answer.status === 404) return undefined;
    return (await answer.json()) as T;
  }

  async send(
    method: string,
    url: string,
    options: { body?: Buffer; headers?: Record<string, string>; allow404?: boolean } = {},
  ): Promise<Response> {
    for (let attempt = 1; ; attempt++) {
      let answer: Response;
      try {
        answer = await fetch(url, {
          method,
          headers: { Authorization: `Bearer ${this.token}`, ...options.headers },
          body: options.body === undefined ? undefined : new Uint8Array(options.body),
        });
      } catch (error) {
        if (attempt < this.attempts) {
          await sleep(RETRY_DELAYS_MS[attempt - 1] ?? 4000);
          continue;
        }
        const cause = (error as { cause?: { message?: string } }).cause?.message;
        throw new UploadFailed(`${method} ${url} failed: ${cause ?? (error as Error).message}`);
      }
      if (answer.ok || (answer.status === 404 && options.allow404 === true)) return answer;
      const text = (await answer.text()).trim().slice(0, 500);
      if (answer.status >= 500 && attempt < this.attempts) {
        await sleep(RETRY_DELAYS_MS[attempt - 1] ?? 4000);
        continue;
      }
      throw new UploadFailed(`${method} ${url} answered ${answer.status}${text === '' ? '' : `: ${text}`}`);
    }
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** An access token: DAM_TOKEN, or the client credentials grant with a client id and secret. */
export async function accessToken(
  baseUrl: string,
  credentials: { token?: string; clientId?: string; clientSecret?: string },
): Promise<string> {
  if (credentials.token !== undefined) return credentials.token;
  if (credentials.clientId === undefined || credentials.clientSecret === undefined) {
    throw new UploadFailed('set DAM_TOKEN, or DAM_CLIENT_ID and DAM_CLIENT_SECRET');
  }
  let answer: Response;
  try {
    answer = await fetch(`${baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: credentials.clientId,
        client_secret: credentials.clientSecret,
      }).toString(),
    });
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    throw new UploadFailed(`${baseUrl}/oauth/token failed: ${cause ?? (error as Error).message}`);
  }
  if (!answer.ok) {
    throw new UploadFailed(
      `${baseUrl}/oauth/token answered ${answer.status}: ${(await answer.text()).trim()}`,
    );
  }
  return ((await answer.json()) as { access_token: string }).access_token;
}
