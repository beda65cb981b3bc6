import { parse } from 'csv-parse/sync';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { bearerRequests, pathOf } from './helpers/bearer-requests';
import { contentRequests, sha256 } from './helpers/content-fixtures';
import { Grants } from './helpers/grant-fixtures';
import { TestApp, TestUser } from './helpers/test-app';
import { assetView, runTransfer } from './helpers/transfer-fixtures';

jest.setTimeout(90_000);

/** The attributes both libraries define (an export names them by label). */
async function defineAttributes(t: TestApp): Promise<Record<string, number>> {
  const { post } = bearerRequests(() => t);
  const ids: Record<string, number> = {};
  for (const [label, typeId] of [
    ['Photographer', 1],
    ['Rating', 8],
    ['Shot on', 3],
  ] as const) {
    ids[label] = (await post('/rest/attributes', t.adminToken, { label, typeId }).expect(201)).body
      .id as number;
  }
  return ids;
}

/** `dam export` of a search or a lightbox, and the round trip into a fresh library (DESIGN §12). */
describe('dam export', () => {
  let source: TestApp;
  let target: TestApp;
  let owner: TestUser;
  let level: number;
  let out: string;
  const assets: string[] = [];
  const api = bearerRequests(() => source);
  const { newAsset, upload } = contentRequests(() => source);
  const bytes = [
    Buffer.from('first file, named same.txt'),
    Buffer.from('second file, also named same.txt'),
    Buffer.from('third file, with a hostile name'),
  ];

  beforeAll(async () => {
    [source, target] = await Promise.all([TestApp.start(), TestApp.start()]);
    level = await new Grants(source).topLevel('Default');
    owner = await source.createUser({ admin: true });
    const ids = await defineAttributes(source);
    await defineAttributes(target);
    const category = async (name: string, parent?: number): Promise<number> =>
      (
        await api
          .post('/rest/categories', source.adminToken, {
            name,
            ...(parent === undefined ? {} : { parent: source.rest(`categories/${parent}`) }),
          })
          .expect(201)
      ).body.id as number;
    const places = await category('Places');
    const paris = await category('Paris', places);
    const year = await category('2024');
    const rows: Array<[string, Record<number | string, string>]> = [
      [
        'same.txt',
        { 1: 'Quay, "at dawn"\nsecond line', 2: 'Boats', 3: 'roundtrip, sea', 10: `${paris},${year}` },
      ],
      ['same.txt', { 1: 'Second', 3: 'roundtrip', [ids.Photographer]: 'Ada', [ids.Rating]: '4.5' }],
      ['..evil?.txt', { 1: 'Third', 3: 'roundtrip', 10: `${places}`, [ids['Shot on']]: '01/02/2024' }],
    ];
    for (const [index, [filename, values]] of rows.entries()) {
      const asset = await newAsset(level);
      await upload(asset, source.adminToken, bytes[index], filename).expect(200);
      const attributes = Object.entries(values).map(([id, value]) => ({ id, value }));
      await api.put(asset, source.adminToken, { attributes }).expect(200);
      assets.push(asset);
    }
    // Without content: left out of the export.
    const empty = await newAsset(level);
    await api.put(empty, source.adminToken, { attributes: [{ id: '3', value: 'roundtrip' }] }).expect(200);
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-export-'));
  });
  afterAll(async () => {
    await Promise.all([source?.close(), target?.close()]);
    fs.rmSync(out, { recursive: true, force: true });
  });

  const env = (t: TestApp, token: string) => ({ DAM_URL: t.baseUrl, DAM_TOKEN: token });

  it('writes the files of a search with safe unique names and a manifest in the import format', async () => {
    const dir = path.join(out, 'search');
    const run = await runTransfer(
      'export',
      [dir, '--search', 'keywords=roundtrip'],
      env(source, owner.token),
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toEqual([path.join(dir, 'manifest.csv')]);
    expect(run.stderr.join('\n')).toContain('has no content: left out');
    const names = fs.readdirSync(dir).sort();
    expect(names).toHaveLength(4);
    expect(names.filter((name) => !name.endsWith('evil_.txt'))).toEqual([
      'manifest.csv',
      'same (2).txt',
      'same.txt',
    ]);
    // Nothing of a stored name leads out of the folder or hides the file.
    expect(names.every((name) => !/[/\\]/.test(name) && !name.startsWith('.'))).toBe(true);
    const manifest = parse(fs.readFileSync(path.join(dir, 'manifest.csv')), { columns: true }) as Array<
      Record<string, string>
    >;
    expect(Object.keys(manifest[0])).toEqual([
      'path',
      'title',
      'description',
      'keywords',
      'categories',
      'attr:Photographer',
      'attr:Rating',
      'attr:Shot on',
    ]);
    expect(manifest[0]).toMatchObject({
      path: 'same.txt',
      title: 'Quay, "at dawn"\nsecond line',
      keywords: 'roundtrip;sea',
      categories: 'Places/Paris;/2024',
    });
    expect(manifest.map((row) => sha256(fs.readFileSync(path.join(dir, row.path))))).toEqual(
      bytes.map(sha256),
    );
    // Into a folder that is not empty: refused.
    expect(
      (await runTransfer('export', [dir, '--search', 'keywords=x'], env(source, owner.token))).code,
    ).toBe(2);
  });

  it('round trip: importing the export into a fresh library reproduces every value and the bytes', async () => {
    const dir = path.join(out, 'trip');
    expect(
      (await runTransfer('export', [dir, '--search', 'keywords=roundtrip'], env(source, owner.token))).code,
    ).toBe(0);
    const targetLevel = await new Grants(target).topLevel('Imported');
    const manifest = path.join(dir, 'manifest.csv');
    const run = await runTransfer(
      'import',
      [manifest, '--access-level', String(targetLevel)],
      env(target, target.adminToken),
    );
    expect(run.report.map((row) => [row.path, row.status])).toEqual([
      ['same.txt', 'created'],
      ['same (2).txt', 'created'],
      [expect.stringMatching(/evil_\.txt$/), 'created'],
    ]);
    expect(run.report[0].reason).toBe('new categories Places/Paris, 2024');
    expect(run.code).toBe(0);
    const compared = ['Title', 'Description', 'Keywords', 'Photographer', 'Rating', 'Shot on'];
    for (const [index, asset] of assets.entries()) {
      const before = await assetView(source, asset);
      const after = await assetView(target, run.report[index].asset);
      const pick = (view: typeof before) => [
        ...compared.map((label) => view.values[label]),
        view.categoryPaths,
        view.contentSha256,
      ];
      expect(pick(after)).toEqual(pick(before));
    }
    // Importing it again into the same library sends nothing.
    const again = await runTransfer(
      'import',
      [manifest, '--access-level', String(targetLevel)],
      env(target, target.adminToken),
    );
    expect(again.report.map((row) => row.status)).toEqual(['unchanged', 'unchanged', 'unchanged']);
  });

  it("exports a lightbox of the caller; another user's lightbox id is refused", async () => {
    const box = await api
      .post(`/rest/users/${owner.id}/lightboxes`, owner.token, { name: 'Pick' })
      .expect(201);
    const contents = pathOf(box.body.lightboxContentsUrl as string);
    for (const asset of [assets[2], assets[0]]) {
      await api.post(contents, owner.token, { url: `${source.baseUrl}${asset}` }).expect(201);
    }
    const dir = path.join(out, 'box');
    const run = await runTransfer(
      'export',
      [dir, '--lightbox', String(box.body.id)],
      env(source, owner.token),
    );
    expect(run.code).toBe(0);
    const manifest = parse(fs.readFileSync(path.join(dir, 'manifest.csv')), { columns: true }) as Array<
      Record<string, string>
    >;
    // The lightbox's order (added first, first; lightbox_items.added_at holds milliseconds on both databases).
    expect(manifest.map((row) => row.title)).toEqual(['Third', 'Quay, "at dawn"\nsecond line']);
    const stranger = await source.createUser();
    const refused = await runTransfer(
      'export',
      [path.join(out, 'x'), '--lightbox', String(box.body.id)],
      env(source, stranger.token),
    );
    expect([refused.code, refused.stderr[0]]).toEqual([1, expect.stringContaining('is not one of yours')]);
    for (const args of [[dir], [dir, '--search', 'a', '--lightbox', '1'], [dir, '--lightbox', 'x']]) {
      expect((await runTransfer('export', args, env(source, owner.token))).code).toBe(2);
    }
  });
});
