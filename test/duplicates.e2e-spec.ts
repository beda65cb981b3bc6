import { bearerRequests } from './helpers/bearer-requests';
import { contentRequests, defaultLevelWith, sha256 } from './helpers/content-fixtures';
import { Grants } from './helpers/grant-fixtures';
import { storedKeys } from './helpers/stored-keys';
import { TestApp, TestUser } from './helpers/test-app';
import { nodes, parseXml, textOf } from './helpers/xml';

/**
 * DESIGN §12, "Duplicates": `contentSha256` on the asset, the search by digest, and the
 * DAM_DUPLICATE_UPLOADS policy of content uploads. An editor on the Default level never learns of an
 * asset on the Hidden level, whose assets only the application user sees.
 */
describe('duplicates by content', () => {
  /** A fresh app with `policy` (undefined: the default), the Default level, an editor and a Hidden level. */
  async function world(policy?: string) {
    const t = await TestApp.start(policy === undefined ? {} : { env: { DAM_DUPLICATE_UPLOADS: policy } });
    const grants = new Grants(t);
    const {
      level,
      users: [editor],
    } = await defaultLevelWith(t, grants, [['view', 'download', 'edit']]);
    const hidden = await grants.topLevel('Hidden');
    return { t, level, hidden, editor };
  }

  let unique = 0;
  /** Bytes no other test uploads. */
  const freshBytes = (): Buffer => Buffer.from(`duplicates ${++unique} ${Date.now()} ${Math.random()}`);
  const idOf = (path: string): number => Number(path.split('/').pop());

  describe('warn (the default)', () => {
    let t: TestApp;
    let level: number;
    let hidden: number;
    let editor: TestUser;
    const { get, post } = bearerRequests(() => t);
    const { newAsset, upload } = contentRequests(() => t);
    const url = (path: string): string => `${t.baseUrl}${path}`;

    beforeAll(async () => {
      ({ t, level, hidden, editor } = await world());
    });
    afterAll(() => t?.close());

    it('shows contentSha256 in JSON and XML: null without content, the lower-case hex digest after', async () => {
      const asset = await newAsset(level);
      expect((await get(asset, t.adminToken).expect(200)).body.contentSha256).toBeNull();
      const emptyXml = await t.http
        .get(asset)
        .auth(t.adminToken, { type: 'bearer' })
        .accept('application/xml');
      expect(nodes(parseXml(emptyXml.text), '/asset/contentSha256[@xsi:nil="true"]')).toHaveLength(1);

      const bytes = freshBytes();
      await upload(asset, t.adminToken, bytes).expect(200);
      expect((await get(asset, t.adminToken).expect(200)).body.contentSha256).toBe(sha256(bytes));
      const xml = await t.http.get(asset).auth(t.adminToken, { type: 'bearer' }).accept('application/xml');
      expect(textOf(parseXml(xml.text), '/asset/contentSha256')).toBe(sha256(bytes));
    });

    it('finds the visible assets whose current content has a digest (either case), never a hidden one', async () => {
      const bytes = freshBytes();
      const visible = await newAsset(level);
      const secret = await newAsset(hidden);
      const replaced = await newAsset(level);
      await upload(visible, t.adminToken, bytes).expect(200);
      await upload(secret, t.adminToken, bytes).expect(200);
      await upload(replaced, t.adminToken, bytes).expect(200);
      await upload(replaced, t.adminToken, freshBytes()).expect(200); // no longer its current content
      const search = (token: string, digest: string) =>
        get(`/rest/asset-search?contentSha256=${digest}`, token).expect(200);

      const asAdmin = await search(t.adminToken, sha256(bytes).toUpperCase());
      expect(asAdmin.body.map((summary: { id: number }) => summary.id)).toEqual([
        idOf(visible),
        idOf(secret),
      ]);
      const asEditor = await search(editor.token, sha256(bytes));
      expect(asEditor.body.map((summary: { id: number }) => summary.id)).toEqual([idOf(visible)]);
      expect((await search(editor.token, sha256(freshBytes()))).body).toEqual([]);
    });

    it('finds the assets of several digests in one search (repeated or comma-joined), never a hidden one', async () => {
      const [shared, own, secretOnly, unknown] = [freshBytes(), freshBytes(), freshBytes(), freshBytes()];
      const visible = await newAsset(level);
      const secret = await newAsset(hidden);
      const mine = await newAsset(level);
      const secretAlone = await newAsset(hidden);
      await upload(visible, t.adminToken, shared).expect(200);
      await upload(secret, t.adminToken, shared).expect(200);
      await upload(mine, t.adminToken, own).expect(200);
      await upload(secretAlone, t.adminToken, secretOnly).expect(200);
      const digests = [shared, own, secretOnly, unknown].map(sha256);
      const found = async (query: string, token: string) =>
        (await get(`/rest/asset-search?${query}`, token).expect(200)).body.map(
          (summary: { id: number; contentSha256: string }) => [summary.id, summary.contentSha256],
        );
      const repeated = digests.map((digest) => `contentSha256=${digest.toUpperCase()}`).join('&');
      const commas = `contentSha256=${digests.join(',')}`;

      for (const query of [repeated, commas]) {
        expect(await found(query, editor.token)).toEqual([
          [idOf(visible), sha256(shared)],
          [idOf(mine), sha256(own)],
        ]);
        expect(await found(query, t.adminToken)).toEqual([
          [idOf(visible), sha256(shared)],
          [idOf(secret), sha256(shared)],
          [idOf(mine), sha256(own)],
          [idOf(secretAlone), sha256(secretOnly)],
        ]);
      }
      const xml = await t.http
        .get(`/rest/asset-search?${commas}`)
        .auth(editor.token, { type: 'bearer' })
        .accept('application/xml')
        .expect(200);
      expect(textOf(parseXml(xml.text), '/assetSummaries/assetSummary[2]/contentSha256')).toBe(sha256(own));
    });

    it('takes up to 40 digests in one search (its Link header still readable), refuses 41 with a plain 400', async () => {
      const bytes = [freshBytes(), freshBytes(), freshBytes()];
      const assets = [];
      for (const content of bytes) {
        assets.push(idOf(await newAsset(level)));
        await upload(`/rest/assets/${assets[assets.length - 1]}`, t.adminToken, content).expect(200);
      }
      const others = Array.from({ length: 37 }, () => sha256(freshBytes()));
      const query = [...bytes.map(sha256), ...others].map((digest) => `contentSha256=${digest}`).join('&');
      // The second of three pages: first, prev, next and last links, each repeating the 40 digests.
      const page = await get(`/rest/asset-search?${query}&pageSize=1&page=1`, editor.token).expect(200);
      expect(page.body.map((summary: { id: number }) => summary.id)).toEqual([assets[1]]);
      expect(page.headers['x-total-count']).toBe('3');
      expect(page.headers.link).toContain('rel="next"');
      expect(page.headers.link).toContain('rel="last"');

      const tooMany = await get(
        `/rest/asset-search?${query}&contentSha256=${sha256(freshBytes())}`,
        editor.token,
      ).expect(400);
      expect(tooMany.headers['content-type']).toMatch(/^text\/plain/);
      expect(tooMany.text).toContain('contentSha256 takes at most 40 digests in one search, not 41');
    });

    it.each(['abc', 'g'.repeat(64), 'a'.repeat(65), `${'a'.repeat(63)} `])(
      'refuses contentSha256=%p with a plain 400',
      async (bad) => {
        const answer = await get(
          `/rest/asset-search?contentSha256=${encodeURIComponent(bad)}`,
          t.adminToken,
        ).expect(400);
        expect(answer.headers['content-type']).toMatch(/^text\/plain/);
        expect(answer.text).toContain('contentSha256 must be a SHA-256 as 64 hexadecimal digits');
      },
    );

    it('answers a direct PUT with X-Duplicate-Of naming the other visible assets only', async () => {
      const bytes = freshBytes();
      const first = await newAsset(level);
      const second = await newAsset(level);
      const secret = await newAsset(hidden);
      await upload(secret, t.adminToken, bytes).expect(200);
      await upload(first, t.adminToken, bytes).expect(200);
      await upload(second, t.adminToken, bytes).expect(200);

      const target = await newAsset(level);
      const answer = await upload(target, editor.token, bytes).expect(200);
      expect(answer.headers['x-duplicate-of']).toBe(`${url(first)}, ${url(second)}`);
      const again = await upload(target, editor.token, bytes).expect(200); // itself is not a duplicate
      expect(again.headers['x-duplicate-of']).toBe(`${url(first)}, ${url(second)}`);
      const asAdmin = await upload(await newAsset(level), t.adminToken, bytes).expect(200);
      expect(asAdmin.headers['x-duplicate-of']).toBe([first, second, secret, target].map(url).join(', '));
      expect((await get(target, editor.token).expect(200)).body.contentSha256).toBe(sha256(bytes));
    });

    it('answers no X-Duplicate-Of when the only other asset with the bytes is hidden, or none has them', async () => {
      const bytes = freshBytes();
      await upload(await newAsset(hidden), t.adminToken, bytes).expect(200);
      const hiddenOnly = await upload(await newAsset(level), editor.token, bytes).expect(200);
      expect(hiddenOnly.headers['x-duplicate-of']).toBeUndefined();
      const fresh = await upload(await newAsset(level), editor.token, freshBytes()).expect(200);
      expect(fresh.headers['x-duplicate-of']).toBeUndefined();
    });

    it('names at most 10 duplicates', async () => {
      const bytes = freshBytes();
      const assets: string[] = [];
      for (let index = 0; index < 11; index += 1) {
        assets.push(await newAsset(level));
        await upload(assets[index], t.adminToken, bytes).expect(200);
      }
      const answer = await upload(await newAsset(level), editor.token, bytes).expect(200);
      expect(answer.headers['x-duplicate-of']).toBe(assets.slice(0, 10).map(url).join(', '));
    });

    it('answers a copy from a temp chunked file with X-Duplicate-Of', async () => {
      const bytes = freshBytes();
      const original = await newAsset(level);
      await upload(original, t.adminToken, bytes).expect(200);
      const created = await post('/rest/temp-chunked-files', editor.token, {}).expect(201);
      const temp = new URL(created.headers.location as string).pathname;
      await t.http
        .put(`${temp}/0`)
        .auth(editor.token, { type: 'bearer' })
        .set('Content-Type', 'application/octet-stream')
        .send(bytes)
        .expect(200);
      const target = await newAsset(level);
      const answer = await t.http
        .put(`${target}/content`)
        .auth(editor.token, { type: 'bearer' })
        .set('Content-Type', 'application/octet-stream')
        .set('Content-Disposition', 'attachment; filename="copied.bin"')
        .set('X-Copy-Temp-Chunked-File', created.headers.location as string)
        .expect(200);
      expect(answer.headers['x-duplicate-of']).toBe(url(original));
    });
  });

  describe('refuse', () => {
    let t: TestApp;
    let level: number;
    let hidden: number;
    let editor: TestUser;
    const { get } = bearerRequests(() => t);
    const { newAsset, upload } = contentRequests(() => t);

    beforeAll(async () => {
      ({ t, level, hidden, editor } = await world('refuse'));
    });
    afterAll(() => t?.close());

    it('answers 409 naming the first duplicate and changes nothing: no version, no object left', async () => {
      const bytes = freshBytes();
      const original = await newAsset(level);
      await upload(original, t.adminToken, bytes).expect(200);
      const target = await newAsset(level);
      const earlier = freshBytes();
      await upload(target, editor.token, earlier).expect(200);
      const versions = (await get(`${target}/versions`, editor.token).expect(200)).body;
      const keys = await storedKeys(t, `assets/${idOf(target)}/`);
      expect(keys).toHaveLength(1);

      for (const asNewVersion of ['false', 'true']) {
        const refused = await upload(target, editor.token, bytes)
          .set('Upload-As-New-Version', asNewVersion)
          .expect(409);
        expect(refused.headers['content-type']).toMatch(/^text\/plain/);
        expect(refused.text).toContain(`${t.baseUrl}${original}`);
      }
      expect((await get(`${target}/versions`, editor.token).expect(200)).body).toEqual(versions);
      expect(await storedKeys(t, `assets/${idOf(target)}/`)).toEqual(keys);
      expect((await get(target, editor.token).expect(200)).body.contentSha256).toBe(sha256(earlier));
    });

    it('stores content whose only duplicate the uploader cannot see (nothing is revealed)', async () => {
      const bytes = freshBytes();
      await upload(await newAsset(hidden), t.adminToken, bytes).expect(200);
      const target = await newAsset(level);
      const answer = await upload(target, editor.token, bytes).expect(200);
      expect(answer.headers['x-duplicate-of']).toBeUndefined();
      expect((await get(target, editor.token).expect(200)).body.contentSha256).toBe(sha256(bytes));
    });
  });

  describe('allow', () => {
    let t: TestApp;
    let level: number;
    let editor: TestUser;
    const { get } = bearerRequests(() => t);
    const { newAsset, upload } = contentRequests(() => t);

    beforeAll(async () => {
      ({ t, level, editor } = await world('allow'));
    });
    afterAll(() => t?.close());

    it('stores a duplicate without looking: no header', async () => {
      const bytes = freshBytes();
      await upload(await newAsset(level), t.adminToken, bytes).expect(200);
      const target = await newAsset(level);
      const answer = await upload(target, editor.token, bytes).expect(200);
      expect(answer.headers['x-duplicate-of']).toBeUndefined();
      expect((await get(target, editor.token).expect(200)).body.contentSha256).toBe(sha256(bytes));
    });
  });
});
