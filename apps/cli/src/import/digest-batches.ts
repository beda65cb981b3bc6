import { stat } from 'node:fs/promises';
import { allPages, Connection, eachLimited } from '../transfer/connection';
import { FileHashes, hashFile } from '../upload/upload-client';
import { RowFailed } from './category-resolver';
import { ImportRow } from './import-row';

/** An asset the server found by digest (a search result). */
export interface DigestMatch {
  fullAssetUrl: string;
  contentSha256?: string | null;
  originalFilename?: string;
  attributes?: Array<{ name: string; value: string }>;
}

/** The first row of the import with some bytes: later rows with them wait for its outcome. */
export interface FirstRow {
  index: number;
  /** The asset it created or found, undefined when it failed (or was not imported). */
  outcome: Promise<string | undefined>;
  settle(asset: string | undefined): void;
}

/** What the import knows of a row before sending anything. */
export interface KnownRow {
  size: number;
  hashes: FileHashes;
  /** The assets you can see whose current content has the row's bytes, as the lookup found them. */
  matches: DigestMatch[];
  first: FirstRow;
}

export interface DigestBatchSettings {
  chunkSize: number;
  /** Digests per lookup request (the server takes at most 40). */
  batchSize: number;
  /** A batch closes early once its files hold this many bytes, so a big file is not kept waiting. */
  batchBytes: number;
  /** Batches read and looked up ahead of the one the import works on. */
  ahead: number;
  /** Files hashed at a time. */
  hashParallel: number;
  /** The visible assets whose current content has one of `digests`, each with its contentSha256. */
  lookup(digests: string[]): Promise<DigestMatch[]>;
}

interface Read {
  size: number;
  hashes: FileHashes;
}

interface Batch {
  from: number;
  to: number;
  /** The rows' hashes (or why a row cannot be read), once they are registered in row order. */
  registered?: Promise<Array<PromiseSettledResult<Read>>>;
  looked?: Promise<Map<string, DigestMatch[]>>;
  remaining: number;
}

/**
 * Reads ahead of the import: hashes the files `hashParallel` at a time, batch after batch, and looks up their
 * digests `batchSize` at a time (one request per batch instead of one per file), a few batches ahead of
 * the row the workers need. Rows are registered in row order, so the first row with some bytes is the
 * first in the import's order, whatever order the hashing finishes in. A batch is forgotten once every
 * row of it was asked for, so memory does not grow with the number of files.
 */
export class DigestBatches {
  private readonly batches: Batch[] = [];
  private readonly batchOfRow: number[] = [];
  private readonly firstByDigest = new Map<string, FirstRow>();
  private started = 0;
  /** The hashing of the last batch started. */
  private hashing: Promise<void> = Promise.resolve();

  constructor(
    private readonly rows: ImportRow[],
    sizes: number[],
    private readonly settings: DigestBatchSettings,
  ) {
    let bytes = 0;
    for (let index = 0; index < rows.length; index++) {
      const current = this.batches[this.batches.length - 1];
      if (
        current === undefined ||
        current.to - current.from >= settings.batchSize ||
        bytes >= settings.batchBytes
      ) {
        this.batches.push({ from: index, to: index + 1, remaining: 1 });
        bytes = 0;
      } else {
        current.to = index + 1;
        current.remaining++;
      }
      bytes += sizes[index] ?? 0;
      this.batchOfRow.push(this.batches.length - 1);
    }
  }

  /** The row's size, hashes and matches; throws RowFailed (or the lookup's failure) for that row. */
  async of(index: number): Promise<KnownRow> {
    const number = this.batchOfRow[index];
    while (this.started <= Math.min(number + this.settings.ahead, this.batches.length - 1)) {
      this.start(this.started++);
    }
    const batch = this.batches[number];
    try {
      const read = (await batch.registered)?.[index - batch.from];
      if (read === undefined) throw new Error(`row ${index} was forgotten before it was imported`);
      if (read.status === 'rejected') throw read.reason;
      const { size, hashes } = read.value;
      const first = this.firstByDigest.get(hashes.sha256) as FirstRow;
      const looked = await batch.looked?.catch((error: unknown) => {
        // The row fails: later rows with its bytes must not wait for it.
        if (first.index === index) first.settle(undefined);
        throw error;
      });
      return { size, hashes, matches: looked?.get(hashes.sha256) ?? [], first };
    } finally {
      if (--batch.remaining === 0) {
        batch.registered = undefined;
        batch.looked = undefined;
      }
    }
  }

  private start(number: number): void {
    const batch = this.batches[number];
    const previous = this.batches[number - 1];
    const rows = this.rows.slice(batch.from, batch.to);
    const reads: Array<PromiseSettledResult<Read>> = [];
    // Batches are hashed one after another, the files of one hashParallel at a time.
    const hashed = this.hashing.then(() =>
      eachLimited(rows, this.settings.hashParallel, async (row, offset) => {
        try {
          reads[offset] = { status: 'fulfilled', value: await this.read(row) };
        } catch (reason) {
          reads[offset] = { status: 'rejected', reason };
        }
      }),
    );
    this.hashing = hashed;
    batch.registered = hashed.then(async () => {
      await previous?.registered;
      reads.forEach((read, offset) => {
        if (read.status === 'fulfilled') this.register(read.value.hashes.sha256, batch.from + offset);
      });
      return reads;
    });
    batch.looked = batch.registered.then(async (settled) => {
      const digests = new Set<string>();
      for (const read of settled) if (read.status === 'fulfilled') digests.add(read.value.hashes.sha256);
      const byDigest = new Map<string, DigestMatch[]>();
      if (digests.size === 0) return byDigest;
      for (const match of await this.settings.lookup([...digests])) {
        const digest = match.contentSha256 ?? '';
        byDigest.set(digest, [...(byDigest.get(digest) ?? []), match]);
      }
      return byDigest;
    });
    // Asked for by the rows' workers; a failure is theirs to report, not an unhandled rejection.
    batch.looked.catch(() => undefined);
  }

  private register(digest: string, index: number): void {
    if (this.firstByDigest.has(digest)) return;
    let settle: (asset: string | undefined) => void = () => undefined;
    const outcome = new Promise<string | undefined>((resolve) => (settle = resolve));
    this.firstByDigest.set(digest, { index, outcome, settle });
  }

  private async read(row: ImportRow): Promise<Read> {
    const info = await stat(row.file);
    if (!info.isFile()) throw new RowFailed(`${row.path} is not a file`);
    if (info.size === 0) throw new RowFailed(`${row.path} is empty`);
    return { size: info.size, hashes: await hashFile(row.file, this.settings.chunkSize) };
  }
}

/** The lookup of `dam import`: `GET /rest/asset-search?contentSha256=a,b,...`, every page. */
export function lookupDigests(connection: Connection): (digests: string[]) => Promise<DigestMatch[]> {
  return (digests) =>
    allPages<DigestMatch>(
      connection.http,
      connection.rest(`asset-search?contentSha256=${digests.join(',')}&count=false&pageSize=1000`),
    );
}
