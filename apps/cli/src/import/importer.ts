import { open } from 'node:fs/promises';
import * as path from 'node:path';
import { attachment, digestField, UploadFailed } from '../upload/dam-http';
import { FileHashes, uploadFile } from '../upload/upload-client';
import { Attribute, AttributeCatalog } from '../transfer/catalog';
import { Connection } from '../transfer/connection';
import { CategoryResolver, RowFailed } from './category-resolver';
import { DigestBatches, DigestMatch, KnownRow } from './digest-batches';
import { ImportRow } from './import-row';

export type ImportStatus = 'created' | 'duplicate' | 'unchanged' | 'failed';

/** One line of the report. */
export interface ReportRow {
  path: string;
  status: ImportStatus;
  asset: string;
  reason: string;
}

export interface ImportSettings {
  connection: Connection;
  catalog: AttributeCatalog;
  /** The attribute of each `attr:` label of the manifest (checked before the run). */
  labelled: Map<string, Attribute>;
  categories: CategoryResolver;
  defaultLevel?: number;
  onDuplicate: 'skip' | 'import';
  dryRun: boolean;
  /** Files bigger than this go through a temp chunked file in chunks of this size; others in one PUT. */
  chunkSize: number;
  /** Chunks of the big file being sent (one big file at a time) sent at a time. */
  chunkParallel: number;
  /** Bytes of the row's file are done (sent, or known to need no sending). */
  advance(bytes: number): void;
}

/**
 * Imports one row at a time (call `import` from several workers): the row's file is hashed locally and
 * its digest looked up ahead of time, in batches (DigestBatches); then it is skipped (`unchanged`,
 * `duplicate`) or its asset is created, the bytes sent (one PUT, or the chunk path of `dam upload` for
 * big files) with extractEmbeddedData=true and the row's metadata written. A row that fails after its
 * asset was created deletes that asset again.
 */
export class Importer {
  /** Assets created by this run: never `unchanged` for another row of the same run. */
  private readonly createdNow = new Set<string>();
  private readonly levels = new Map<number, Promise<boolean>>();
  /** The chunk upload of the last big file: the next one waits for it. */
  private bigFiles: Promise<void> = Promise.resolve();

  constructor(
    private readonly settings: ImportSettings,
    private readonly digests: DigestBatches,
  ) {}

  /**
   * `index` is the row's place in the import: of several files with the same bytes, the first in that
   * order is the one imported, whatever order the workers finish hashing in.
   */
  async import(row: ImportRow, index: number): Promise<ReportRow> {
    let size = 0;
    const result = (status: ImportStatus, asset = '', reason = ''): ReportRow => ({
      path: row.path,
      status,
      asset,
      reason,
    });
    try {
      const known = await this.digests.of(index);
      size = known.size;
      const { first } = known;
      let outcome: ReportRow | undefined;
      try {
        const prior = first.index === index ? undefined : await first.outcome;
        if (prior !== undefined && this.settings.onDuplicate === 'skip') {
          this.settings.advance(size);
          return result('duplicate', prior, 'the same bytes as another file of this import');
        }
        outcome = await this.importNew(row, known);
        return outcome;
      } finally {
        if (first.index === index) {
          first.settle(outcome?.status === 'failed' ? undefined : outcome?.asset || undefined);
        }
      }
    } catch (error) {
      this.settings.advance(size);
      if (error instanceof RowFailed || error instanceof UploadFailed)
        return result('failed', '', error.message);
      const code = (error as NodeJS.ErrnoException).code;
      if (typeof code === 'string') return result('failed', '', `cannot read ${row.path} (${code})`);
      throw error;
    }
  }

  private async importNew(row: ImportRow, known: KnownRow): Promise<ReportRow> {
    const { connection, onDuplicate, dryRun } = this.settings;
    const { hashes, size, matches } = known;
    const result = (status: ImportStatus, asset = '', reason = ''): ReportRow => ({
      path: row.path,
      status,
      asset,
      reason,
    });
    const same = matches.find((match) => this.isSame(row, match));
    if (same !== undefined) {
      this.settings.advance(size);
      return result('unchanged', same.fullAssetUrl);
    }
    if (matches.length > 0 && onDuplicate === 'skip') {
      this.settings.advance(size);
      return result('duplicate', matches[0].fullAssetUrl, 'the library already holds these bytes');
    }
    const levels =
      row.accessLevels ?? (this.settings.defaultLevel === undefined ? [] : [this.settings.defaultLevel]);
    for (const level of levels) {
      if (!(await this.levelExists(level))) {
        throw new RowFailed(`access level ${level} does not exist or you may not see it`);
      }
    }
    const categories = await this.settings.categories.ids(row.categories);
    const newCategories =
      categories.created.length === 0 ? '' : `; new categories ${categories.created.join(', ')}`;
    if (dryRun) {
      this.settings.advance(size);
      return result('created', '', `dry run: would upload${newCategories}`);
    }
    const { body, location } = await connection.sendJson<{ url?: string }>(
      'POST',
      connection.rest('assets'),
      {
        accessLevels: levels.map((id) => ({ id })),
      },
    );
    const asset = body?.url ?? location ?? '';
    if (asset === '') throw new RowFailed('creating the asset answered no URL');
    try {
      await this.sendContent(row, asset, hashes, size);
      const attributes = this.attributesOf(row, categories.ids);
      if (attributes.length > 0) await connection.sendJson('PUT', asset, { attributes });
    } catch (error) {
      await connection.http.send('DELETE', asset).catch(() => undefined);
      throw error;
    }
    this.createdNow.add(asset);
    return result('created', asset, newCategories.replace(/^; /, ''));
  }

  /**
   * `unchanged`: an asset with these bytes (not created by this run) under the same file name, and the
   * manifest's title when it gives one: what this import made the last time it ran.
   */
  private isSame(row: ImportRow, match: DigestMatch): boolean {
    if (this.createdNow.has(match.fullAssetUrl)) return false;
    if (match.originalFilename !== path.basename(row.file)) return false;
    if (row.title === undefined) return true;
    const label = this.settings.catalog.system('title')?.label;
    return match.attributes?.find((attribute) => attribute.name === label)?.value === row.title;
  }

  private levelExists(id: number): Promise<boolean> {
    let known = this.levels.get(id);
    if (known === undefined) {
      const { connection } = this.settings;
      known = connection.http
        .json('GET', connection.rest(`access-levels/${id}`), { allow404: true })
        .then((level) => level !== undefined);
      this.levels.set(id, known);
    }
    return known;
  }

  private async sendContent(row: ImportRow, asset: string, hashes: FileHashes, size: number): Promise<void> {
    const { connection, chunkSize } = this.settings;
    if (size > chunkSize) {
      // One big file at a time, its chunks chunkParallel at a time, as `dam upload` sends one file: the
      // bytes in flight (and the client's memory) do not grow with --parallel.
      const turn = this.bigFiles.then(() => this.sendChunks(row, asset, hashes, size));
      this.bigFiles = turn.catch(() => undefined);
      return turn;
    }
    // Read from the file as the request is written (FileRange): memory does not grow with the files'
    // sizes, --parallel of them up to the chunk size at a time.
    const handle = await open(row.file, 'r');
    try {
      await connection.http.send('PUT', `${asset}/content?extractEmbeddedData=true`, {
        body: { handle, start: 0, length: size },
        headers: {
          'Content-Type': 'application/octet-stream',
          'Content-Disposition': attachment(path.basename(row.file)),
          'Repr-Digest': digestField(Buffer.from(hashes.sha256, 'hex')),
        },
      });
    } finally {
      await handle.close();
    }
    this.settings.advance(size);
  }

  /** A big file through a temp chunked file (the chunk path of `dam upload`). */
  private async sendChunks(row: ImportRow, asset: string, hashes: FileHashes, size: number): Promise<void> {
    const { connection, chunkSize } = this.settings;
    let done = 0;
    await uploadFile({
      baseUrl: connection.baseUrl,
      token: connection.token,
      file: row.file,
      assetId: Number(asset.split('/').pop()),
      chunkSize,
      parallel: this.settings.chunkParallel,
      asNewVersion: false,
      extractEmbeddedData: true,
      hashes,
      progress: {
        start: () => undefined,
        chunkSent: (_index, bytes) => {
          done += bytes;
          this.settings.advance(bytes);
        },
        stop: () => undefined,
      },
    });
    this.settings.advance(size - done);
  }

  /** The row's metadata as asset attributes (keywords comma-separated, as the asset shows them). */
  private attributesOf(row: ImportRow, categoryIds: number[]): Array<{ id: string; value: string }> {
    const { catalog } = this.settings;
    const values: Array<[Attribute | undefined, string | undefined]> = [
      [catalog.system('title'), row.title],
      [catalog.system('description'), row.description],
      [catalog.system('keywords'), row.keywords?.join(', ')],
      [catalog.system('categories'), categoryIds.length === 0 ? undefined : categoryIds.join(',')],
      ...row.attributes.map(({ label, value }): [Attribute | undefined, string] => [
        this.settings.labelled.get(label),
        value,
      ]),
    ];
    return values.flatMap(([attribute, value]) =>
      attribute === undefined || value === undefined ? [] : [{ id: String(attribute.id), value }],
    );
  }
}
