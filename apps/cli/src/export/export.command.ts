import { mkdir, readdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { failureCode, parseClientArgs } from '../upload/client-command';
import { UploadFailed } from '../upload/dam-http';
import { AttributeCatalog, CategoryTree } from '../transfer/catalog';
import {
  allPages,
  Connection,
  connect,
  eachLimited,
  serviceUrl,
  TransferIo,
  TransferUsage,
} from '../transfer/connection';
import { csvLine } from '../transfer/csv';
import { AssetRepresentation, download, manifestRows, originalName } from './exporter';
import { safeName, UniqueNames } from './file-names';

export const EXPORT_SYNOPSIS = "OUT_DIR (--search 'QUERY STRING' | --lightbox ID)";
export const EXPORT_SUMMARY =
  'write the current files of a search or a lightbox and OUT_DIR/manifest.csv, ready for dam import';

const MANIFEST = 'manifest.csv';
/** Paging and answer-shape parameters of the search that the export sets itself. */
const OWN_PARAMETERS = ['page', 'pageSize', 'cursor', 'count', 'facets', 'facetLimit'];

/**
 * `dam export OUT_DIR --search 'keywords=x' | --lightbox ID`: 0 when every asset was written, 1 when
 * some failed (the others and the manifest are written), 2 for a wrong command line or a folder that
 * is not empty. Assets without content are left out (said on stderr).
 */
export async function runExport(args: string[], io: TransferIo): Promise<number> {
  try {
    const options = readCommandLine(args);
    const baseUrl = serviceUrl(io.env);
    const existing = await readdir(options.outDir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw new TransferUsage(`${options.outDir} cannot be read (${error.code})`);
    });
    if (existing.length > 0) throw new TransferUsage(`${options.outDir} is not empty`);
    const connection = await connect(baseUrl, io.env);
    const urls = await assetUrls(connection, options);
    const catalog = await AttributeCatalog.load(connection);
    const tree = await CategoryTree.load(connection);
    await mkdir(options.outDir, { recursive: true });

    const assets: Array<AssetRepresentation | undefined> = new Array(urls.length);
    let failed = 0;
    await eachLimited(urls, 4, async (url, index) => {
      try {
        assets[index] = await connection.http.json<AssetRepresentation>('GET', url);
      } catch (error) {
        failed += 1;
        io.stderr(`${url}: ${(error as Error).message}`);
      }
    });
    const names = new UniqueNames([MANIFEST]);
    const planned = assets.flatMap((asset) => {
      if (asset === undefined) return [];
      if (asset.contentSha256 === null) {
        io.stderr(`${asset.url} has no content: left out`);
        return [];
      }
      return [{ asset, name: names.claim(safeName(originalName(asset, catalog), `asset-${asset.id}`)) }];
    });
    const written = new Array<boolean>(planned.length).fill(false);
    await eachLimited(planned, 4, async ({ asset, name }, index) => {
      try {
        await download(connection, asset, path.join(options.outDir, name));
        written[index] = true;
      } catch (error) {
        failed += 1;
        io.stderr(`${asset.url}: ${(error as Error).message}`);
      }
    });
    const rows = manifestRows(
      planned.filter((_, index) => written[index]),
      catalog,
      tree,
    );
    const manifest = path.join(options.outDir, MANIFEST);
    await writeFile(manifest, `${rows.map(csvLine).join('\n')}\n`);
    io.stderr(
      `exported ${rows.length - 1} of ${urls.length} assets to ${options.outDir}${failed > 0 ? ` (${failed} failed)` : ''}`,
    );
    io.stdout(manifest);
    return failed > 0 ? 1 : 0;
  } catch (error) {
    return failureCode(error, io, 'export', EXPORT_SYNOPSIS);
  }
}

interface ExportOptions {
  outDir: string;
  search?: string;
  lightbox?: number;
}

/** The URLs of the assets to export, in the search's or the lightbox's order. */
async function assetUrls(connection: Connection, options: ExportOptions): Promise<string[]> {
  if (options.search !== undefined) {
    const query = new URLSearchParams(options.search.replace(/^\?/, ''));
    OWN_PARAMETERS.forEach((name) => query.delete(name));
    query.set('pageSize', '1000');
    const found = await allPages<{ fullAssetUrl: string }>(
      connection.http,
      connection.rest(`asset-search?${query}`),
    );
    return found.map((summary) => summary.fullAssetUrl);
  }
  const lightboxes = await allPages<{ id: number; lightboxContentsUrl: string }>(
    connection.http,
    connection.rest('lightboxes?pageSize=1000'),
  );
  const lightbox = lightboxes.find((candidate) => candidate.id === options.lightbox);
  if (lightbox === undefined) throw new UploadFailed(`lightbox ${options.lightbox} is not one of yours`);
  const separator = lightbox.lightboxContentsUrl.includes('?') ? '&' : '?';
  const items = await allPages<{ url: string }>(
    connection.http,
    `${lightbox.lightboxContentsUrl}${separator}pageSize=1000`,
  );
  return items.map((item) => item.url);
}

function readCommandLine(args: string[]): ExportOptions {
  const { positional: outDir, values } = parseClientArgs(
    args,
    { search: { type: 'string' }, lightbox: { type: 'string' } },
    'OUT_DIR',
  );
  const { search, lightbox } = values;
  if ((search === undefined) === (lightbox === undefined)) {
    throw new TransferUsage('give either --search or --lightbox');
  }
  if (lightbox !== undefined && (!/^\d{1,10}$/.test(lightbox) || Number(lightbox) < 1)) {
    throw new TransferUsage('--lightbox must name a lightbox id');
  }
  return { outDir, search, lightbox: lightbox === undefined ? undefined : Number(lightbox) };
}
