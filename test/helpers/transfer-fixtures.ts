import { parse } from 'csv-parse/sync';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import sharp from 'sharp';
import { runExport } from '../../apps/cli/src/export/export.command';
import { runImport } from '../../apps/cli/src/import/import.command';
import { bearerRequests } from './bearer-requests';
import { TestApp } from './test-app';

export interface TransferRun {
  code: number;
  stdout: string[];
  stderr: string[];
  /** The report's rows (`dam import` without --report), keyed by header. */
  report: Array<Record<'path' | 'status' | 'asset' | 'reason', string>>;
}

/** `dam import` / `dam export` in this process, against `url` with `token`; output captured. */
export async function runTransfer(
  command: 'import' | 'export',
  args: string[],
  env: Record<string, string>,
): Promise<TransferRun> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const io = {
    env,
    stdout: (line: string) => stdout.push(line),
    stderr: (line: string) => stderr.push(line),
  };
  const code = await (command === 'import' ? runImport(args, io) : runExport(args, io));
  const csv = command === 'import' && stdout[0] === 'path,status,asset,reason' ? stdout.join('\n') : '';
  const report = csv === '' ? [] : (parse(csv, { columns: true }) as TransferRun['report']);
  return { code, stdout, stderr, report };
}

/** A fresh folder holding `files` (relative path → bytes or text). */
export function folderWith(files: Record<string, Buffer | string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-transfer-'));
  for (const [relative, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), content);
  }
  return root;
}

/** A small JPEG carrying IPTC keywords (an APP13 Photoshop segment with 2:25 datasets). */
export async function jpegWithIptcKeywords(keywords: string[], seed: number): Promise<Buffer> {
  const jpeg = await sharp({
    create: { width: 8, height: 8, channels: 3, background: { r: seed % 256, g: 80, b: 160 } },
  })
    .jpeg()
    .toBuffer();
  const datasets = Buffer.concat(
    keywords.map((keyword) => {
      const value = Buffer.from(keyword, 'utf8');
      const head = Buffer.from([0x1c, 2, 25, 0, 0]);
      head.writeUInt16BE(value.length, 3);
      return Buffer.concat([head, value]);
    }),
  );
  const padded = datasets.length % 2 === 0 ? datasets : Buffer.concat([datasets, Buffer.alloc(1)]);
  const size = Buffer.alloc(4);
  size.writeUInt32BE(datasets.length);
  const resource = Buffer.concat([Buffer.from('8BIM'), Buffer.from([0x04, 0x04, 0, 0]), size, padded]);
  const payload = Buffer.concat([Buffer.from('Photoshop 3.0\0', 'latin1'), resource]);
  const length = Buffer.alloc(2);
  length.writeUInt16BE(payload.length + 2);
  return Buffer.concat([jpeg.subarray(0, 2), Buffer.from([0xff, 0xed]), length, payload, jpeg.subarray(2)]);
}

/** What a spec compares of an asset: its values by attribute label, and its content's digest. */
export async function assetView(
  t: TestApp,
  /** The asset's URL or path. */
  url: string,
): Promise<{ values: Record<string, string>; contentSha256: string | null; categoryPaths: string[] }> {
  const { get } = bearerRequests(() => t);
  const where = url.startsWith('/') ? url : new URL(url).pathname;
  const asset = (await get(where, t.adminToken).expect(200)).body as {
    attributes: Array<{ name: string; value: string }>;
    contentSha256: string | null;
  };
  const values = Object.fromEntries(asset.attributes.map((attribute) => [attribute.name, attribute.value]));
  const paths = await categoryPaths(t);
  const categoryIds = (values.Categories ?? '').split(',').filter((id) => id !== '');
  return {
    values,
    contentSha256: asset.contentSha256,
    categoryPaths: categoryIds.map((id) => paths.get(Number(id)) ?? `?${id}`).sort(),
  };
}

/** Every category's name path (`trips/2024`) by id. */
export async function categoryPaths(t: TestApp): Promise<Map<number, string>> {
  type Node = { id: number; name: string; children?: Node[] };
  const forest = (
    await bearerRequests(() => t)
      .get('/rest/category-search', t.adminToken)
      .expect(200)
  ).body as Node[];
  const paths = new Map<number, string>();
  const walk = (node: Node, above: string): void => {
    const here = above === '' ? node.name : `${above}/${node.name}`;
    paths.set(node.id, here);
    (node.children ?? []).forEach((child) => walk(child, here));
  };
  forest.forEach((node) => walk(node, ''));
  return paths;
}

/** The number of assets the admin sees (unsubmitted ones included). */
export async function assetCount(t: TestApp): Promise<number> {
  const { get } = bearerRequests(() => t);
  const live = await get('/rest/asset-search?pageSize=1', t.adminToken).expect(200);
  const drafts = await get('/rest/asset-search?pageSize=1&unsubmitted=true', t.adminToken).expect(200);
  return Number(live.headers['x-total-count']) + Number(drafts.headers['x-total-count']);
}
