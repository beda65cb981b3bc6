import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bearerRequests, pathOf } from './helpers/bearer-requests';
import { contentRequests, fetchSigned, png, sha256, waitForRedirect } from './helpers/content-fixtures';
import { fillPath, Route, servedRoutes } from './helpers/route-inventory';
import { defaultAccessLevelId } from './helpers/permission-fixtures';
import { SecurityWorld } from './helpers/security-world';
import { storedKeys } from './helpers/stored-keys';
import { appPerDescribe, TestApp } from './helpers/test-app';

jest.setTimeout(180_000);

/**
 * The security properties in one place, on both matrices. Where an area spec already details a case
 * (bearer-requests' per-route 401s, lightboxes/temp-chunked-files ownership, sign-url and files tampering,
 * the content-disposition unit spec), this file asserts the property across every route the running app
 * serves, or through the client's own flow on both storage adapters.
 */
describe('security', () => {
  let t: TestApp;
  let w: SecurityWorld;
  let routes: Route[];
  const http = bearerRequests(() => t);
  const { upload } = contentRequests(() => t);

  const suite = appPerDescribe(async (app) => ({
    w: await SecurityWorld.create(app),
    routes: servedRoutes(app),
  }));
  beforeAll(() => {
    ({ t, w, routes } = suite);
  });

  describe('view without download', () => {
    let asset: string;
    let originals: string[];
    let versions: number[];

    beforeAll(async () => {
      const first = await png(1200, 900);
      const second = await png(1100, 800);
      originals = [sha256(first), sha256(second)];
      asset = await w.asset(t.adminToken, { content: first, filename: 'v1.png' });
      await upload(asset, t.adminToken, second, 'v2.png').set('Upload-As-New-Version', 'true').expect(200);
      expect((await waitForRedirect(t, `${asset}/unwatermarked-large-image`, t.adminToken)).status).toBe(303);
      expect((await waitForRedirect(t, `${asset}/thumbnail`, t.adminToken)).status).toBe(303);
      const listed = (await http.get(`${asset}/versions`, t.adminToken).expect(200)).body as Array<{
        version: number;
      }>;
      versions = listed.map((entry) => entry.version);
      expect(versions).toHaveLength(2);
    });

    /** Every way to the bytes a downloader has, from the routes that serve an asset's files. */
    const downloadPaths = () => [
      `${asset}/content`,
      `${asset}/content/url`,
      ...versions.map((version) => `${asset}/versions/${version}/content`),
      `${asset}/unwatermarked-large-image`,
      `${asset}/conversion?width=64`,
    ];

    it('is 403 on the content, its URL, every version, the large image and conversions, which a downloader gets', async () => {
      for (const path of downloadPaths()) {
        const refused = await http.get(path, w.vera.token).redirects(0);
        expect([path, refused.status, refused.headers['content-type']]).toEqual([
          path,
          403,
          'text/plain; charset=utf-8',
        ]);
        const served = await http.get(path, w.dan.token).redirects(0);
        expect([path, [200, 303].includes(served.status)]).toEqual([path, true]);
      }
    });

    it('no asset route, lightbox listing or signed URL of theirs hands a viewer the original bytes or a storage URL', async () => {
      const lightbox = await http
        .post(`/rest/users/${w.vera.id}/lightboxes`, w.vera.token, { name: 'Look' })
        .expect(201);
      const contents = `${pathOf(lightbox.headers.location as string)}/contents`;
      await http.post(contents, w.vera.token, { url: `${t.baseUrl}${asset}` }).expect(201);
      const id = asset.split('/').pop() as string;
      const paths = routes
        .filter((route) => route.method === 'get' && route.path.startsWith('/rest/assets/:id'))
        .flatMap((route) => versions.map((version) => fillPath(route.path, { id, version })));
      paths.push(contents);
      for (const path of [...new Set(paths)]) {
        const response = await http.get(path, w.vera.token).redirects(0).buffer(true);
        const leaks: string[] = [];
        if (response.status === 303) {
          const followed = await fetchSigned(response.headers.location as string);
          if (originals.includes(followed.sha256)) leaks.push(`${path} redirects to an original`);
        }
        const urls = JSON.stringify(response.body ?? '').match(/https?:\/\/[^"\\]+/g) ?? [];
        for (const url of urls) if (!url.startsWith(`${t.baseUrl}/rest/`)) leaks.push(`${path} names ${url}`);
        expect(leaks).toEqual([]);
      }
      const signed = await http
        .post('/rest/sign-url', w.vera.token, { url: `${t.baseUrl}${asset}/content`, expirySeconds: 60 })
        .expect(303);
      const url = new URL(signed.headers.location as string);
      await t.http.get(`${url.pathname}${url.search}`).redirects(0).expect(403);
    });
  });

  describe('signed URLs', () => {
    it('cannot be extended or re-targeted: download URLs of either store and signed REST URLs', async () => {
      const [a, b] = [
        await w.asset(t.adminToken, { content: Buffer.from('alpha') }),
        await w.asset(t.adminToken, { content: Buffer.from('bravo') }),
      ];
      const contentUrl = async (path: string) =>
        (await http.get(`${path}/content/url`, w.dan.token).expect(200)).body.url as string;
      const restUrl = async (path: string) =>
        (
          await http
            .post('/rest/sign-url', w.dan.token, { url: `${t.baseUrl}${path}`, expirySeconds: 60 })
            .expect(303)
        ).headers.location as string;
      for (const sign of [contentUrl, restUrl]) {
        const [urlA, urlB] = [await sign(a), await sign(b)];
        const genuine = await fetchSigned(urlA);
        expect(genuine.status).toBe(200);
        for (const [what, forged] of [
          ['extended', extendExpiry(urlA)],
          ['re-targeted', `${new URL(urlB).origin}${new URL(urlB).pathname}${new URL(urlA).search}`],
        ]) {
          const response = await fetchSigned(forged);
          expect([what, forged, [401, 403].includes(response.status)]).toEqual([what, forged, true]);
          expect(response.sha256).not.toBe(genuine.sha256);
        }
      }
    });
  });

  describe('file names', () => {
    const marker = `escaped-${randomBytes(4).toString('hex')}`;
    /** [what, Content-Disposition sent, the name expected back (undefined: only its safety is checked)] */
    const names: Array<[string, string, string | undefined]> = [
      ['dot segments', `attachment; filename="../../../${marker}.txt"`, `${marker}.txt`],
      ['backslashes', `attachment; filename*=UTF-8''..%5C..%5C${marker}.txt`, `${marker}.txt`],
      ['an absolute path', `attachment; filename="/etc/${marker}"`, `etc${marker}`],
      ['NUL', `attachment; filename*=UTF-8''nul%00${marker}.txt`, `nul${marker}.txt`],
      [
        'CR/LF and controls',
        `attachment; filename*=UTF-8''a%0D%0ASet-Cookie%3A%20x%3D1%07%1B${marker}.txt`,
        `aSet-Cookie: x=1${marker}.txt`,
      ],
      [
        'quotes and semicolons',
        `attachment; filename*=UTF-8''say%20%22hi%22%3B%20filename%3Devil.exe%20${marker}.txt`,
        undefined,
      ],
      [
        'unicode',
        `attachment; filename*=UTF-8''Gr%C3%B6%C3%9Fe%20%E5%A0%B1%E5%91%8A%20%F0%9F%98%80%20${marker}.txt`,
        `Größe 報告 😀 ${marker}.txt`,
      ],
      [
        'a bidi override',
        `attachment; filename*=UTF-8''invoice%E2%80%AEtxt.exe${marker}`,
        `invoicetxt.exe${marker}`,
      ],
      ['a very long name', `attachment; filename="${'n'.repeat(1500)}${marker}.txt"`, 'n'.repeat(200)],
      ['nothing but dots', 'attachment; filename=".."', 'download'],
    ];

    it.each(names)(
      '%s: stored harmlessly and offered in a safe Content-Disposition',
      async (_what, disposition, expected) => {
        const asset = await w.asset(t.adminToken);
        const body = randomBytes(64);
        await t.http
          .put(`${asset}/content`)
          .auth(t.adminToken, { type: 'bearer' })
          .set('Content-Type', 'application/octet-stream')
          .set('Content-Disposition', disposition)
          .send(body)
          .expect(200);
        const [version] = (await http.get(`${asset}/versions`, t.adminToken).expect(200)).body as Array<{
          originalFilename: string;
        }>;
        const stored = version.originalFilename;
        expect(stored).not.toMatch(/[\p{Cc}/\\"]|^\./u);
        expect([...stored].length).toBeLessThanOrEqual(200);
        if (expected !== undefined) expect(stored).toBe(expected);

        const header = await offeredDisposition(
          (await http.get(`${asset}/content/url`, t.adminToken).expect(200)).body.url as string,
          sha256(body),
        );
        const parts =
          /^attachment; filename="([\x20\x21\x23-\x7e]*)"(?:; filename\*=UTF-8''([A-Za-z0-9%!#$&+.^_`|~-]+))?$/.exec(
            header,
          );
        expect([header, parts !== null]).toEqual([header, true]);
        expect(parts?.[1]).not.toMatch(/[\\/]|%[0-9A-Fa-f]{2}|^\./);
        // filename* (RFC 6266/8187) carries exactly the stored name when it is not plain ASCII.
        expect(parts?.[2] === undefined ? parts?.[1] : decodeURIComponent(parts[2])).toBe(stored);
      },
    );

    it('writes nothing outside the storage root and never uses a client name in a key', async () => {
      const dataDir = t.config.dataDir;
      const everything = walk(dataDir);
      expect(everything.filter((entry) => entry.includes(marker))).toEqual([]);
      for (const dir of [path.dirname(dataDir), path.dirname(path.dirname(dataDir)), process.cwd()]) {
        expect(fs.readdirSync(dir).filter((name) => name.includes(marker))).toEqual([]);
      }
      const outsideStorage = everything.filter(
        (entry) => !entry.startsWith(`storage${path.sep}`) && entry !== 'storage',
      );
      expect(outsideStorage.filter((entry) => !/^dam\.sqlite/.test(entry))).toEqual([]);
      const keys = await storedKeys(t, 'assets/');
      expect(keys.length).toBeGreaterThanOrEqual(names.length);
      expect(keys.filter((key) => !/^assets\/\d+\/[0-9a-f-]{36}$/.test(key))).toEqual([]);
    });
  });
});

/** The URL with a later expiry and its signature kept: `timestamp` (service) or `X-Amz-Expires` (S3). */
function extendExpiry(url: string): string {
  const parsed = new URL(url);
  const timestamp = parsed.searchParams.get('timestamp');
  if (timestamp !== null) parsed.searchParams.set('timestamp', String(Number(timestamp) + 3600));
  else if (parsed.searchParams.has('X-Amz-Expires')) parsed.searchParams.set('X-Amz-Expires', '604800');
  else throw new Error(`no expiry in ${url}`);
  return parsed.toString();
}

/**
 * Downloads a content URL (expecting `sha`) and answers the Content-Disposition it is served with. One
 * exception: the in-process S3 emulator (@20minutes/s3rver) checks SigV4 with encodeURIComponent, which
 * leaves ! ' ( ) * unencoded where AWS and MinIO follow RFC 3986, so it refuses presigned URLs whose
 * response-content-disposition holds them (any filename*). S3 echoes that parameter verbatim, so there
 * the parameter is the header served.
 */
async function offeredDisposition(url: string, sha: string): Promise<string> {
  const presigned = new URL(url).searchParams.get('response-content-disposition');
  const emulated = process.env.MINIO_ENDPOINT === undefined || process.env.MINIO_ENDPOINT === '';
  if (presigned !== null && emulated && /[!'()*]/.test(presigned)) return presigned;
  const downloaded = await fetchSigned(url);
  expect([downloaded.status, downloaded.sha256]).toEqual([200, sha]);
  const served = downloaded.headers.get('content-disposition') ?? '';
  if (presigned !== null) expect(served).toBe(presigned);
  return served;
}

/** Every file and folder under `root`, relative to it. */
function walk(root: string): string[] {
  return fs.readdirSync(root, { recursive: true, encoding: 'utf8' });
}

describe('security: signed URLs expire (DAM_SIGNED_URL_TTL_SECONDS=1)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start({ env: { DAM_SIGNED_URL_TTL_SECONDS: '1' } });
  });
  afterAll(() => t?.close());

  it('refuses a download URL and a signed REST URL once their time has passed', async () => {
    const http = bearerRequests(() => t);
    const created = await http
      .post('/rest/assets', t.adminToken, { accessLevels: [{ id: await defaultAccessLevelId(t) }] })
      .expect(201);
    const asset = pathOf(created.headers.location as string);
    await contentRequests(() => t)
      .upload(asset, t.adminToken, Buffer.from('short-lived'))
      .expect(200);
    const signedFrom = Math.floor(Date.now() / 1000);
    const download = (await http.get(`${asset}/content/url`, t.adminToken).expect(200)).body.url as string;
    const rest = (
      await http
        .post('/rest/sign-url', t.adminToken, { url: `${t.baseUrl}${asset}`, expirySeconds: 1 })
        .expect(303)
    ).headers.location as string;
    const expiry = new URL(download).searchParams;
    // One second from the signing, which a loaded machine may have done a while after signedFrom.
    const lifetime = Number(expiry.get('X-Amz-Expires') ?? Number(expiry.get('timestamp')) - signedFrom);
    expect(lifetime).toBeGreaterThanOrEqual(1);
    expect(lifetime).toBeLessThanOrEqual(1 + Math.ceil(Date.now() / 1000) - signedFrom);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    for (const url of [download, rest]) {
      const response = await fetchSigned(url);
      expect([url, response.status]).toEqual([url, new URL(url).pathname.startsWith('/rest/') ? 401 : 403]);
      expect(response.body.toString()).toMatch(/expired/i);
    }
  });
});
