import * as fs from 'node:fs';
import * as path from 'node:path';
import { bearerRequests } from './helpers/bearer-requests';
import { contentRequests, sha256 } from './helpers/content-fixtures';
import { Grants } from './helpers/grant-fixtures';
import { RecordingProxy } from './helpers/recording-proxy';
import { TestApp } from './helpers/test-app';
import {
  assetCount,
  assetView,
  categoryPaths,
  folderWith,
  jpegWithIptcKeywords,
  runTransfer,
} from './helpers/transfer-fixtures';

jest.setTimeout(60_000);

/** `dam import` (DESIGN §12) against a running app, through a proxy that records what it sends. */
describe('dam import', () => {
  let t: TestApp;
  let proxy: RecordingProxy;
  let level: number;
  const { post } = bearerRequests(() => t);
  const { newAsset, upload } = contentRequests(() => t);
  const folders: string[] = [];

  beforeAll(async () => {
    t = await TestApp.start();
    level = await new Grants(t).topLevel('Default');
    proxy = await new RecordingProxy(t.baseUrl).start();
    await post('/rest/attributes', t.adminToken, { label: 'Photographer', typeId: 1 }).expect(201);
    await post('/rest/attributes', t.adminToken, { label: 'Rating', typeId: 8 }).expect(201);
  });
  afterAll(async () => {
    await proxy?.stop();
    await t?.close();
    folders.forEach((folder) => fs.rmSync(folder, { recursive: true, force: true }));
  });

  const env = (extra: Record<string, string> = {}) => ({
    DAM_URL: proxy.url,
    DAM_TOKEN: t.adminToken,
    ...extra,
  });
  const folder = (files: Record<string, Buffer | string>): string => {
    const root = folderWith(files);
    folders.push(root);
    return root;
  };
  const writes = (requests: string[]) => requests.filter((request) => !request.startsWith('GET '));

  it('imports a folder: nested folders become categories, IPTC keywords fill the keywords', async () => {
    const boat = await jpegWithIptcKeywords(['sea', 'boat'], 1);
    const root = folder({
      'trips/2024/boat.jpg': boat,
      'trips/notes.txt': 'notes of the trips',
      'top.txt': 'at the top',
    });
    proxy.take();
    const run = await runTransfer(
      'import',
      [root, '--access-level', String(level), '--categories-from-folders'],
      env(),
    );
    expect(run.code).toBe(0);
    expect(run.report.map((row) => [row.path, row.status])).toEqual([
      ['top.txt', 'created'],
      ['trips/2024/boat.jpg', 'created'],
      ['trips/notes.txt', 'created'],
    ]);
    const [top, photo, notes] = await Promise.all(run.report.map((row) => assetView(t, row.asset)));
    expect(photo.values.Keywords).toBe('sea, boat');
    expect(photo.categoryPaths).toEqual(['trips/2024']);
    expect(photo.contentSha256).toBe(sha256(boat));
    expect(notes.categoryPaths).toEqual(['trips']);
    expect(top.categoryPaths).toEqual([]);
    expect(top.values['Original filename']).toBe('top.txt');
    // Every upload asked for the embedded data (a request the server failed with a 5xx is sent again).
    const contentPuts = proxy.take().filter((request) => /^PUT \/rest\/assets\/\d+\/content/.test(request));
    expect(new Set(contentPuts).size).toBe(3);
    expect(contentPuts.every((request) => request.endsWith('?extractEmbeddedData=true'))).toBe(true);

    // The same import again sends nothing: every file is unchanged, and only reads went out.
    const again = await runTransfer(
      'import',
      [root, '--access-level', String(level), '--categories-from-folders'],
      env(),
    );
    expect(again.code).toBe(0);
    expect(again.report.map((row) => [row.status, row.asset])).toEqual([
      ['unchanged', run.report[0].asset],
      ['unchanged', run.report[1].asset],
      ['unchanged', run.report[2].asset],
    ]);
    const reads = proxy.take();
    expect(writes(reads)).toEqual([]);
    // The three digests were looked up in one request.
    const lookups = (requests: string[]) =>
      requests.filter((request) => request.startsWith('GET /rest/asset-search?'));
    expect(lookups(reads)).toHaveLength(1);
    const digests = [boat, 'notes of the trips', 'at the top'].map((bytes) => sha256(Buffer.from(bytes)));
    for (const digest of digests) expect(lookups(reads)[0]).toContain(digest);

    // DAM_IMPORT_LOOKUP_BATCH=2: two requests for three digests, the same report.
    const inTwos = await runTransfer(
      'import',
      [root, '--access-level', String(level), '--categories-from-folders'],
      env({ DAM_IMPORT_LOOKUP_BATCH: '2' }),
    );
    expect(inTwos.report.map((row) => row.status)).toEqual(['unchanged', 'unchanged', 'unchanged']);
    expect(lookups(proxy.take())).toHaveLength(2);
  });

  it('imports a manifest with every column kind; a manifest row wins over embedded data', async () => {
    const existing = (await post('/rest/categories', t.adminToken, { name: 'Existing' }).expect(201))
      .body as {
      id: number;
    };
    const root = folder({
      'files/a.jpg': await jpegWithIptcKeywords(['embedded'], 2),
      'b.txt': 'bee',
      'manifest.csv':
        'path,title,description,keywords,accessLevels,categories,attr:Photographer,attr:rating\n' +
        `files/a.jpg,Harbour,"Boats, at dawn",harbour; dawn,${level},Places/Paris;${existing.id},Ada,4.5\n` +
        `b.txt,Bee,,,,/2024,,\n`,
    });
    const run = await runTransfer(
      'import',
      [path.join(root, 'manifest.csv'), '--access-level', String(level)],
      env(),
    );
    expect(run.stderr.join('\n')).toContain('2 files: 2 created');
    expect(run.code).toBe(0);
    const [a, b] = await Promise.all(run.report.map((row) => assetView(t, row.asset)));
    expect(a.values).toMatchObject({
      Title: 'Harbour',
      Description: 'Boats, at dawn',
      Keywords: 'harbour, dawn',
      Photographer: 'Ada',
      Rating: '4.5',
      'Access levels': String(level),
      'Original filename': 'a.jpg',
    });
    expect(a.categoryPaths).toEqual(['Existing', 'Places/Paris']);
    expect(b.values).toMatchObject({ Title: 'Bee', Description: '', Keywords: '', Photographer: '' });
    expect(b.categoryPaths).toEqual(['2024']);
  });

  it('refuses a bad manifest with exit 2 naming the line, before any request', async () => {
    const root = folder({ 'a.txt': 'a', 'b.txt': 'b' });
    const cases: Array<[string, string[], string]> = [
      ['path,title,colour\na.txt,A,red\n', [], 'line 1: unknown column "colour"'],
      ['path,accessLevels\na.txt,1\nb.txt,x1\n', [], 'line 3: accessLevels: "x1" is not an access level id'],
      ['path,title,accessLevels\na.txt,"multi\nline",1\nb.txt,B,\n', [], 'line 4: no access level'],
      ['path,categories\na.txt,7;abc/\nb.txt,0\n', ['--access-level', '1'], 'line 3: categories: "0" is not'],
      ['title\nA\n', [], 'line 1: the header has no "path" column'],
    ];
    for (const [manifest, args, message] of cases) {
      fs.writeFileSync(path.join(root, 'manifest.csv'), manifest);
      proxy.take();
      const run = await runTransfer('import', [path.join(root, 'manifest.csv'), ...args], env());
      expect([run.code, run.stderr[0]]).toEqual([2, expect.stringContaining(message)]);
      expect(proxy.take()).toEqual([]);
    }
    // An attr: column naming no attribute: only reads were made.
    fs.writeFileSync(path.join(root, 'manifest.csv'), 'path,attr:Nope\na.txt,x\n');
    const unknown = await runTransfer(
      'import',
      [path.join(root, 'manifest.csv'), '--access-level', String(level)],
      env(),
    );
    expect([unknown.code, unknown.stderr[0]]).toEqual([
      2,
      expect.stringContaining('"attr:Nope" names no attribute'),
    ]);
    expect(writes(proxy.take())).toEqual([]);
    // And the command line.
    for (const args of [
      [],
      [root, '--parallel', '0'],
      [root, '--on-duplicate', 'maybe'],
      [path.join(root, 'a.txt')],
    ]) {
      expect((await runTransfer('import', args, env())).code).toBe(2);
    }
  });

  it('skips a file the library already holds (duplicate, the existing URL) unless --on-duplicate import', async () => {
    const bytes = Buffer.from('already in the library, under another name');
    const original = await newAsset(level);
    await upload(original, t.adminToken, bytes, 'first-name.txt').expect(200);
    const root = folder({ 'second-name.txt': bytes, 'twin-a.txt': 'twins', 'twin-b.txt': 'twins' });
    proxy.take();
    const run = await runTransfer('import', [root, '--access-level', String(level)], env());
    expect(run.code).toBe(0);
    expect(run.report.map((row) => [row.path, row.status])).toEqual([
      ['second-name.txt', 'duplicate'],
      ['twin-a.txt', 'created'],
      ['twin-b.txt', 'duplicate'],
    ]);
    expect(run.report[0].asset).toBe(`${proxy.url}${original}`);
    expect(run.report[2].asset).toBe(run.report[1].asset);
    expect(writes(proxy.take()).filter((request) => request.includes('/content'))).toHaveLength(1);

    const forced = await runTransfer(
      'import',
      [root, '--access-level', String(level), '--on-duplicate', 'import'],
      env(),
    );
    expect(forced.report.map((row) => [row.path, row.status])).toEqual([
      ['second-name.txt', 'created'],
      ['twin-a.txt', 'unchanged'],
      ['twin-b.txt', 'created'],
    ]);
    expect((await assetView(t, forced.report[0].asset)).contentSha256).toBe(sha256(bytes));
  });

  it('a failed row does not stop the others: exit 1, the rest imported, no asset left by the failure', async () => {
    const root = folder({
      'good-1.txt': 'good one',
      'no-level.txt': 'no such level',
      'bad-rating.txt': 'not a number',
      'no-category.txt': 'no such category',
      'good-2.txt': 'good two',
    });
    fs.writeFileSync(
      path.join(root, 'manifest.csv'),
      'path,accessLevels,categories,attr:Rating\n' +
        'good-1.txt,,,1\nno-level.txt,999999,,\nbad-rating.txt,,,lots\nmissing.txt,,,\nno-category.txt,,999999,\ngood-2.txt,,,2\n',
    );
    const before = await assetCount(t);
    const run = await runTransfer(
      'import',
      [path.join(root, 'manifest.csv'), '--access-level', String(level)],
      env(),
    );
    expect(run.code).toBe(1);
    expect(run.report.map((row) => [row.path, row.status])).toEqual([
      ['good-1.txt', 'created'],
      ['no-level.txt', 'failed'],
      ['bad-rating.txt', 'failed'],
      ['missing.txt', 'failed'],
      ['no-category.txt', 'failed'],
      ['good-2.txt', 'created'],
    ]);
    expect(run.report[1].reason).toContain('access level 999999 does not exist');
    expect(run.report[2].reason).toContain('Rating');
    expect(run.report[3].reason).toContain('ENOENT');
    expect(run.report[4].reason).toContain('category 999999 does not exist');
    expect(await assetCount(t)).toBe(before + 2);
  });

  it('--dry-run reads and reports what it would do, and writes nothing', async () => {
    const root = folder({ 'new/one.txt': 'dry one', 'new/deeper/two.txt': 'dry two' });
    const before = [await assetCount(t), (await categoryPaths(t)).size];
    proxy.take();
    const report = path.join(root, 'report.csv');
    const args = [
      root,
      '--access-level',
      String(level),
      '--categories-from-folders',
      '--dry-run',
      '--report',
      report,
    ];
    const run = await runTransfer('import', args, env());
    expect(run.code).toBe(0);
    expect(fs.readFileSync(report, 'utf8')).toBe(
      'path,status,asset,reason\n' +
        'new/deeper/two.txt,created,,dry run: would upload; new categories new/deeper\n' +
        'new/one.txt,created,,dry run: would upload; new categories new\n',
    );
    expect(writes(proxy.take())).toEqual([]);
    expect([await assetCount(t), (await categoryPaths(t)).size]).toEqual(before);
  });

  it('sends files above DAM_IMPORT_CHUNK_SIZE through temp chunked files, smaller ones in one PUT', async () => {
    const big = Buffer.alloc(5 * 1024 + 100, 'chunked ');
    const root = folder({ 'big.bin': big, 'small.bin': Buffer.from('small') });
    proxy.take();
    const run = await runTransfer(
      'import',
      [root, '--access-level', String(level)],
      env({ DAM_IMPORT_CHUNK_SIZE: '1K' }),
    );
    expect(run.report.map((row) => row.status)).toEqual(['created', 'created']);
    const sent = proxy.take();
    expect(
      sent.filter((request) => /^PUT \/rest\/temp-chunked-files\/[^/]+\/\d+$/.test(request)),
    ).toHaveLength(6);
    const bigView = await assetView(t, run.report[0].asset);
    expect([bigView.contentSha256, bigView.values['Original filename']]).toEqual([sha256(big), 'big.bin']);
    expect((await assetView(t, run.report[1].asset)).contentSha256).toBe(sha256(Buffer.from('small')));
  });
});
