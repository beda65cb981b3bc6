import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { AttributeCatalog, CategoryTree, categoryCell } from '../transfer/catalog';
import { Connection } from '../transfer/connection';

/** An asset as `GET /rest/assets/{id}` shows it (the fields the export reads). */
export interface AssetRepresentation {
  url: string;
  id: number;
  contentSha256: string | null;
  attributes: Array<{ id: string; name: string; value: string }>;
}

/** Downloads an asset's current content to `file`, checking its SHA-256 on the way. */
export async function download(
  connection: Connection,
  asset: AssetRepresentation,
  file: string,
): Promise<void> {
  const answer = await connection.http.send('GET', `${asset.url}/content`);
  if (answer.body === null) throw new Error(`${asset.url}/content answered no body`);
  const hash = createHash('sha256');
  const partial = `${file}.part`;
  try {
    await pipeline(
      Readable.fromWeb(answer.body as WebReadableStream<Uint8Array>),
      new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          done(null, chunk);
        },
      }),
      createWriteStream(partial),
    );
    const digest = hash.digest('hex');
    if (digest !== asset.contentSha256) {
      throw new Error(
        `${asset.url}: the downloaded bytes have SHA-256 ${digest}, not ${asset.contentSha256}`,
      );
    }
    await rename(partial, file);
  } finally {
    await rm(partial, { force: true });
  }
}

/**
 * The manifest in the import's format: path, title, description, keywords (`;`), categories (name
 * paths, `;`) and an `attr:<label>` column for every other writable attribute that has a value on at
 * least one exported asset. Access levels are left out: ids mean nothing in another library
 * (`dam import --access-level` places the assets there).
 */
export function manifestRows(
  exported: Array<{ name: string; asset: AssetRepresentation }>,
  catalog: AttributeCatalog,
  tree: CategoryTree,
): string[][] {
  const valueOf = (asset: AssetRepresentation, staticName: string): string => {
    const id = String(catalog.system(staticName)?.id ?? '');
    return asset.attributes.find((attribute) => attribute.id === id)?.value ?? '';
  };
  const extra = catalog
    .exportable()
    .filter((attribute) =>
      exported.some(({ asset }) =>
        asset.attributes.some((value) => value.id === String(attribute.id) && value.value !== ''),
      ),
    );
  const header = [
    'path',
    'title',
    'description',
    'keywords',
    'categories',
    ...extra.map((a) => `attr:${a.label}`),
  ];
  const rows = exported.map(({ name, asset }) => [
    name,
    valueOf(asset, 'title'),
    valueOf(asset, 'description'),
    list(valueOf(asset, 'keywords')).join(';'),
    list(valueOf(asset, 'categories'))
      .map((id) => tree.pathOf(Number(id)))
      .filter((names): names is string[] => names !== undefined)
      .map(categoryCell)
      .join(';'),
    ...extra.map(
      (attribute) => asset.attributes.find((value) => value.id === String(attribute.id))?.value ?? '',
    ),
  ]);
  return [header, ...rows];
}

function list(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

export function originalName(asset: AssetRepresentation, catalog: AttributeCatalog): string {
  const id = String(catalog.system('originalFilename')?.id ?? '');
  return asset.attributes.find((attribute) => attribute.id === id)?.value ?? '';
}
