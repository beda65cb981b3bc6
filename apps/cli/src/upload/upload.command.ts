import { SingleBar } from 'cli-progress';
import { failureCode, parseClientArgs, UploadUsage } from './client-command';
import { accessToken, UploadFailed, uploadFile, UploadProgress } from './upload-client';

export { UploadUsage } from './client-command';

export interface UploadIo {
  env: NodeJS.ProcessEnv;
  stdout(line: string): void;
  stderr(line: string): void;
  /** Where the progress bar is drawn; plain lines go to `stderr` when it is no TTY. */
  progressStream?: NodeJS.WriteStream;
}

export const UPLOAD_SYNOPSIS =
  'FILE --asset <id> [--parallel <n>] [--chunk-size <bytes|K|M>] [--as-new-version]';
export const UPLOAD_SUMMARY =
  'upload FILE as the content of an asset in resumable chunks (DAM_URL, DAM_TOKEN or DAM_CLIENT_ID/SECRET)';

const DEFAULT_CHUNK_SIZE = 8 * 1024 * 1024;
const MAX_CHUNK_SIZE = 1024 * 1024 * 1024;

/**
 * `dam upload FILE --asset ID` (also `npm run cli -- upload ...`): prints the asset URL on stdout and
 * returns 0; 1 with a one-line message on stderr when a request failed (its status and the server's
 * text); 2 for a wrong command line or missing settings. Run it again after an interruption: it resumes.
 */
export async function runUpload(args: string[], io: UploadIo): Promise<number> {
  try {
    await upload(args, io);
    return 0;
  } catch (error) {
    return failureCode(error, io, 'upload', UPLOAD_SYNOPSIS);
  }
}

/** The upload; throws UploadUsage or UploadFailed. */
export async function upload(args: string[], io: UploadIo): Promise<void> {
  const options = readCommandLine(args, io.env);
  try {
    const token = await accessToken(options.baseUrl, {
      token: env(io.env, 'DAM_TOKEN'),
      clientId: env(io.env, 'DAM_CLIENT_ID'),
      clientSecret: env(io.env, 'DAM_CLIENT_SECRET'),
    });
    const result = await uploadFile({
      ...options,
      token,
      progress: progressOf(options.file, io),
    });
    io.stderr(
      `uploaded ${options.file} (${result.sent} of ${result.total} chunks sent by this run, sha-256 ${result.sha256})`,
    );
    io.stdout(result.assetUrl);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') {
      throw new UploadFailed(`cannot read ${options.file} (${code})`);
    }
    throw error;
  }
}

function env(environment: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = environment[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function readCommandLine(args: string[], environment: NodeJS.ProcessEnv) {
  const { positional: file, values } = parseClientArgs(
    args,
    {
      asset: { type: 'string' },
      parallel: { type: 'string' },
      'chunk-size': { type: 'string' },
      'as-new-version': { type: 'boolean' },
    },
    'FILE',
  );
  if (values.asset === undefined || !/^\d{1,10}$/.test(values.asset) || Number(values.asset) < 1) {
    throw new UploadUsage('--asset must name an asset id');
  }
  const parallel = values.parallel === undefined ? 4 : Number(values.parallel);
  if (!Number.isInteger(parallel) || parallel < 1 || parallel > 32) {
    throw new UploadUsage('--parallel must be a whole number from 1 to 32');
  }
  const rawUrl = env(environment, 'DAM_URL');
  if (rawUrl === undefined || !/^https?:\/\/[^/]/.test(rawUrl)) {
    throw new UploadUsage('DAM_URL must be the service URL, e.g. https://dam.example.com');
  }
  return {
    baseUrl: rawUrl.replace(/\/+$/, ''),
    file,
    assetId: Number(values.asset),
    parallel,
    chunkSize: chunkSizeOf(values['chunk-size']),
    asNewVersion: values['as-new-version'] === true,
  };
}

/** `1048576`, `512K`, `8M`, `1G` (binary units); `name` is the option or variable, for the message. */
export function chunkSizeOf(raw: string | undefined, name = '--chunk-size'): number {
  if (raw === undefined) return DEFAULT_CHUNK_SIZE;
  const match = /^(\d{1,10})([KMG]?)(i?B)?$/i.exec(raw.trim());
  const unit = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[(match?.[2] ?? '').toUpperCase()] ?? 1;
  const size = match === null ? NaN : Number(match[1]) * unit;
  if (!Number.isSafeInteger(size) || size < 1024 || size > MAX_CHUNK_SIZE) {
    throw new UploadUsage(`${name} must be from 1K to 1G (bytes, or with K, M, G)`);
  }
  return size;
}

/** A cli-progress bar on a TTY, else one line per chunk (logs, CI, pipes). */
function progressOf(file: string, io: UploadIo): UploadProgress {
  const stream = io.progressStream;
  if (stream?.isTTY === true) {
    const bar = new SingleBar({
      stream,
      format: `${file} [{bar}] {percentage}% | {value}/{total} MiB | {chunks} chunks | ETA {eta_formatted}`,
      hideCursor: true,
    });
    let chunks = 0;
    let total = 0;
    return {
      start(count, present, bytes, presentBytes) {
        chunks = present;
        total = count;
        bar.start(mib(bytes), mib(presentBytes), { chunks: `${present}/${count}` });
      },
      chunkSent(_index, size) {
        chunks += 1;
        bar.increment(mib(size), { chunks: `${chunks}/${total}` });
      },
      stop: () => bar.stop(),
    };
  }
  let done = 0;
  let total = 0;
  return {
    start(count, present) {
      done = present;
      total = count;
      io.stderr(
        present > 0
          ? `resuming ${file}: ${present} of ${count} chunks already on the server`
          : `uploading ${file} in ${count} chunks`,
      );
    },
    chunkSent(index) {
      done += 1;
      io.stderr(`chunk ${index} sent (${done}/${total}, ${Math.floor((done / total) * 100)}%)`);
    },
    stop: () => undefined,
  };
}

function mib(bytes: number): number {
  return Math.round((bytes / (1024 * 1024)) * 10) / 10;
}
