import { stat, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { failureCode, parseClientArgs } from '../upload/client-command';
import { chunkSizeOf } from '../upload/upload.command';
import { Attribute, AttributeCatalog, CategoryTree } from '../transfer/catalog';
import { connect, eachLimited, serviceUrl, TransferIo, TransferUsage } from '../transfer/connection';
import { csvLine } from '../transfer/csv';
import { CategoryResolver } from './category-resolver';
import { DigestBatches, lookupDigests } from './digest-batches';
import { folderCategory, readFolder } from './folder';
import { ImportRow, ManifestError } from './import-row';
import { Importer, ReportRow } from './importer';
import { readManifest } from './manifest';
import { importProgress } from './progress';

export const IMPORT_SYNOPSIS =
  'PATH [--access-level ID] [--categories-from-folders] [--parallel N] [--dry-run] [--report FILE] [--on-duplicate skip|import]';
export const IMPORT_SUMMARY =
  'import a folder or a CSV manifest as assets, skipping files the library holds (DAM_URL, DAM_TOKEN or DAM_CLIENT_ID/SECRET)';

const DEFAULT_CHUNK_SIZE = '8M';
/** Digests per lookup request (GET /rest/asset-search takes at most 40). */
const LOOKUP_BATCH = 40;
/** A lookup batch closes early once its files hold this many bytes (a big file is not kept waiting). */
const LOOKUP_BATCH_BYTES = 64 * 1024 * 1024;

interface ImportOptions {
  source: string;
  isManifest: boolean;
  accessLevel?: number;
  categoriesFromFolders: boolean;
  parallel: number;
  dryRun: boolean;
  report?: string;
  onDuplicate: 'skip' | 'import';
  chunkSize: number;
  lookupBatch: number;
}

/**
 * `dam import PATH ...`: 0 when no file failed, 1 when some did (or the service could not be used at
 * all), 2 for a wrong command line or manifest (nothing sent). The report goes to --report, else stdout.
 */
export async function runImport(args: string[], io: TransferIo): Promise<number> {
  try {
    const options = await readCommandLine(args, io.env);
    const baseUrl = serviceUrl(io.env);
    const rows = options.isManifest
      ? await readManifest(options.source, options.accessLevel)
      : await readFolder(options.source, options.categoriesFromFolders);
    if (options.isManifest && options.categoriesFromFolders) {
      for (const row of rows) row.categories.push(...folderCategory(row.path));
    }
    const connection = await connect(baseUrl, io.env);
    const catalog = await AttributeCatalog.load(connection);
    const labelled = attributesOfColumns(options.source, rows, catalog);
    const sizes = await Promise.all(
      rows.map((row) =>
        stat(row.file).then(
          (info) => info.size,
          () => 0,
        ),
      ),
    );
    const progress = importProgress(
      io,
      rows.length,
      sizes.reduce((sum, size) => sum + size, 0),
    );
    const digests = new DigestBatches(rows, sizes, {
      chunkSize: options.chunkSize,
      batchSize: options.lookupBatch,
      batchBytes: LOOKUP_BATCH_BYTES,
      ahead: 2,
      hashParallel: Math.min(4, availableParallelism()),
      lookup: lookupDigests(connection),
    });
    const importer = new Importer(
      {
        connection,
        catalog,
        labelled,
        categories: new CategoryResolver(connection, await CategoryTree.load(connection), options.dryRun),
        defaultLevel: options.accessLevel,
        onDuplicate: options.onDuplicate,
        dryRun: options.dryRun,
        chunkSize: options.chunkSize,
        chunkParallel: 4,
        advance: (bytes) => progress.advance(bytes),
      },
      digests,
    );
    const report: ReportRow[] = new Array<ReportRow>(rows.length);
    try {
      await eachLimited(rows, options.parallel, async (row, index) => {
        report[index] = await importer.import(row, index);
        progress.fileDone(report[index]);
      });
    } finally {
      progress.stop();
    }
    const text = [
      csvLine(['path', 'status', 'asset', 'reason']),
      ...report.map((row) => csvLine([row.path, row.status, row.asset, row.reason])),
    ];
    if (options.report === undefined) text.forEach((line) => io.stdout(line));
    else await writeFile(options.report, `${text.join('\n')}\n`);
    const failed = report.filter((row) => row.status === 'failed').length;
    io.stderr(summary(report, options.dryRun));
    return failed > 0 ? 1 : 0;
  } catch (error) {
    if (error instanceof ManifestError) {
      io.stderr(error.message);
      return 2;
    }
    return failureCode(error, io, 'import', IMPORT_SYNOPSIS);
  }
}

function summary(report: ReportRow[], dryRun: boolean): string {
  const count = (status: string) => report.filter((row) => row.status === status).length;
  const created = dryRun ? 'would create' : 'created';
  return `${report.length} files: ${count('created')} ${created}, ${count('duplicate')} duplicate, ${count('unchanged')} unchanged, ${count('failed')} failed`;
}

/** The attribute of each `attr:` column; one that names none, or one that cannot be written, exits 2. */
function attributesOfColumns(
  manifest: string,
  rows: ImportRow[],
  catalog: AttributeCatalog,
): Map<string, Attribute> {
  const labelled = new Map<string, Attribute>();
  for (const row of rows) {
    for (const { label } of row.attributes) {
      if (labelled.has(label)) continue;
      const attribute = catalog.byLabel(label);
      const refusal =
        attribute === undefined ? 'names no attribute of the library' : catalog.refusal(attribute);
      if (refusal !== undefined || attribute === undefined) {
        throw new ManifestError(`${manifest} line 1: the column "attr:${label}" ${refusal}`);
      }
      labelled.set(label, attribute);
    }
  }
  return labelled;
}

async function readCommandLine(args: string[], environment: NodeJS.ProcessEnv): Promise<ImportOptions> {
  const { positional: source, values } = parseClientArgs(
    args,
    {
      'access-level': { type: 'string' },
      'categories-from-folders': { type: 'boolean' },
      parallel: { type: 'string' },
      'dry-run': { type: 'boolean' },
      report: { type: 'string' },
      'on-duplicate': { type: 'string' },
    },
    'PATH (a folder or a .csv manifest)',
  );
  const level = values['access-level'];
  if (level !== undefined && (!/^\d{1,10}$/.test(level) || Number(level) < 1)) {
    throw new TransferUsage('--access-level must name an access level id');
  }
  const parallel = values.parallel === undefined ? 4 : Number(values.parallel);
  if (!/^\d{1,2}$/.test(values.parallel ?? '4') || parallel < 1 || parallel > 32) {
    throw new TransferUsage('--parallel must be a whole number from 1 to 32');
  }
  const onDuplicate = values['on-duplicate'] ?? 'skip';
  if (onDuplicate !== 'skip' && onDuplicate !== 'import') {
    throw new TransferUsage('--on-duplicate must be skip or import');
  }
  if (values.report === '') throw new TransferUsage('--report must name a file');
  const info = await stat(source).catch(() => undefined);
  const isManifest = info?.isFile() === true && source.toLowerCase().endsWith('.csv');
  if (info?.isDirectory() !== true && !isManifest) {
    throw new TransferUsage(`${source} is neither a folder nor a .csv manifest`);
  }
  const chunkSize = chunkSizeOf(
    environment.DAM_IMPORT_CHUNK_SIZE?.trim() || DEFAULT_CHUNK_SIZE,
    'DAM_IMPORT_CHUNK_SIZE',
  );
  const lookupBatch = Number(environment.DAM_IMPORT_LOOKUP_BATCH?.trim() || LOOKUP_BATCH);
  if (!Number.isInteger(lookupBatch) || lookupBatch < 1 || lookupBatch > LOOKUP_BATCH) {
    throw new TransferUsage(`DAM_IMPORT_LOOKUP_BATCH must be a whole number from 1 to ${LOOKUP_BATCH}`);
  }
  return {
    source,
    isManifest,
    accessLevel: level === undefined ? undefined : Number(level),
    categoriesFromFolders: values['categories-from-folders'] === true,
    parallel,
    dryRun: values['dry-run'] === true,
    report: values.report,
    onDuplicate,
    chunkSize,
    lookupBatch,
  };
}
