import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bearerRequests, pathOf } from './helpers/bearer-requests';
import { contentRequests, fetchSigned, png, sha256, waitForRedirect } from './helpers/content-fixtures';
import {
  documentedRoutes,
  fillPath,
  gatherFailures,
  requestRoute,
  Route,
  routeName,
  servedRoutes,
} from './helpers/route-inventory';
import { defaultAccessLevelId } from './helpers/permission-fixtures';
import { isPublic, PUBLIC_ROUTES, SecurityWorld } from './helpers/security-world';
import { storedKeys } from './helpers/stored-keys';
import { TestApp } from './helpers/test-app';

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

  beforeAll(async () => {
    t = await TestApp.start();
    w = await SecurityWorld.create(t);
    routes = servedRoutes(t);
  });
  afterAll(() => t?.close());

  const protectedRoutes = (): Route[] => routes.filter((route) => !isPublic(route));

  describe('authentication', () => {
    it('reads the routes from the running app: the OpenAPI document lists every protected route it serves', async () => {
      const served = new Set(routes.map(routeName));
      const documented = (await documentedRoutes(t)).map(routeName);
      expect(documented.filter((name) => !served.has(name))).toEqual([]);
      const undocumented = protectedRoutes()
        .map(routeName)
        .filter((name) => !documented.includes(name));
      expect(undocumented).toEqual([]);
      // The spec's resource table is in there (a discovery that found nothing would prove nothing).
      for (const name of [
        'GET /rest',
        'PUT /rest/assets/:id/content',
        'DELETE /rest/temp-chunked-files/:id',
      ]) {
        expect(served).toContain(name);
      }
    });

    it('lists as public only routes that exist, and those still need their own credential', async () => {
      for (const entry of PUBLIC_ROUTES)
        expect([entry.why, routes.some(entry.matches)]).toEqual([entry.why, true]);
      // 403 on the fs store; on the minio store the route serves nothing at all (404).
      const unsigned = await t.http.get('/files/assets/1/x');
      expect([403, 404]).toContain(unsigned.status);
      const noClient = await t.http
        .post('/oauth/token')
        .type('form')
        .send({ grant_type: 'client_credentials' });
      expect([400, 401]).toContain(noClient.status);
      expect(noClient.body.access_token).toBeUndefined();
    });

    it('answers 401 with WWW-Authenticate: Bearer on every other route and method without a token', async () => {
      const cases = protectedRoutes().flatMap((route) =>
        route.method === 'get' ? [route, { ...route, method: 'head' as const }] : [route],
      );
      const failures = await gatherFailures(cases, async (route) => {
        const response = await requestRoute(t, route.method, fillPath(route.path, {}, '1'));
        const ok = response.status === 401 && response.headers['www-authenticate'] === 'Bearer';
        const plain = route.method === 'head' || /^text\/plain/.test(response.headers['content-type'] ?? '');
        return ok && plain
          ? undefined
          : `${routeName(route)}: ${response.status} (neither 401 nor listed as public)`;
      });
      expect(failures).toEqual([]);
    });

    it('answers 401 on every route to malformed, unknown, expired, revoked and misused credentials', async () => {
      const victim = await t.createUser();
      const expired = await w.tokenFor(victim, 1);
      const revoked = await w.tokenFor(victim);
      await t.http
        .post('/oauth/revoke')
        .type('form')
        .send({ token: revoked, client_id: t.clientId, client_secret: t.clientSecret })
        .expect(200);
      const refresh = await t.http
        .post('/oauth/token')
        .type('form')
        .send({
          grant_type: 'password',
          username: victim.username,
          password: victim.password,
          client_id: t.clientId,
          client_secret: t.clientSecret,
        })
        .expect(200);
      const deleted = await t.createUser();
      await http.delete(`/rest/users/${deleted.id}`, t.adminToken).expect(204);
      // The same issuing path with the default lifetime works: the expired token differs only in its age.
      await http.get('/rest/authenticated-user', await w.tokenFor(victim)).expect(200);
      await http.get('/rest/authenticated-user', revoked).expect(401);
      await new Promise((resolve) => setTimeout(resolve, 1_500));

      const basic = Buffer.from(`${t.clientId}:${t.clientSecret}`).toString('base64');
      const credentials: Array<[string, string]> = [
        ['malformed: scheme only', 'Bearer'],
        ['malformed: two tokens', `Bearer ${t.adminToken} ${t.adminToken}`],
        ['malformed: valid token with a suffix', `Bearer ${t.adminToken}x`],
        ['malformed: the OAuth client as Basic', `Basic ${basic}`],
        ['unknown token', `Bearer ${randomBytes(32).toString('base64url')}`],
        ['expired token', `Bearer ${expired}`],
        ['revoked token', `Bearer ${revoked}`],
        ['refresh token used as an access token', `Bearer ${refresh.body.refresh_token as string}`],
        ['token of a deleted user', `Bearer ${deleted.token}`],
      ];
      const cases = protectedRoutes().flatMap((route) =>
        credentials.map((credential) => ({ route, credential })),
      );
      const failures = await gatherFailures(cases, async ({ route, credential: [what, authorization] }) => {
        const response = await requestRoute(t, route.method, fillPath(route.path, {}, '1'), {
          authorization,
        });
        return response.status === 401 && /^Bearer/.test(response.headers['www-authenticate'] ?? '')
          ? undefined
          : `${routeName(route)} with ${what}: ${response.status}`;
      });
      expect(failures).toEqual([]);
    });

    it('answers 401 to GET routes presenting a forged signature instead of a token', async () => {
      const forged = {
        timestamp: Math.floor(Date.now() / 1000) + 600,
        key: 'A'.repeat(43),
        signer: w.applicationUserId,
      };
      const failures = await gatherFailures(
        protectedRoutes().filter((route) => route.method === 'get'),
        async (route) => {
          const response = await requestRoute(t, 'get', fillPath(route.path, {}, '1'), { query: forged });
          return response.status === 401 ? undefined : `${routeName(route)}: ${response.status}`;
        },
      );
      expect(failures).toEqual([]);
    });
  });

  describe("another user's lightboxes, temp chunked files and hidden assets", () => {
    /** The routes under `prefix`, requested by bob with `values` in the path; each must answer `status`. */
    async function sweep(prefix: string, values: Record<string, string | number>, status: number, body = {}) {
      const selected = routes.filter((route) => route.path.startsWith(prefix));
      expect(selected.length).toBeGreaterThan(0);
      return gatherFailures(selected, async (route) => {
        const octets = route.path.endsWith('/content') || route.path.endsWith('/:index');
        const response = await requestRoute(t, route.method, fillPath(route.path, values, '1'), {
          token: w.bob.token,
          // A valid conversion, so that parameter checks (which come first, and leak nothing) pass.
          query: route.path.endsWith('/conversion') ? { width: 16 } : undefined,
          json: body,
          octets: octets ? { body: Buffer.from('theirs'), filename: 'theirs.txt' } : undefined,
        });
        return response.status === status ? undefined : `${routeName(route)}: ${response.status}`;
      });
    }

    it("a lightbox: 404 on every lightbox route, under its owner's path or one's own, and nothing changes", async () => {
      const visible = await w.asset(w.alice.token);
      const created = await http
        .post(`/rest/users/${w.alice.id}/lightboxes`, w.alice.token, { name: 'Private', description: 'mine' })
        .expect(201);
      const lightbox = pathOf(created.headers.location as string);
      const lightboxId = lightbox.split('/').pop() as string;
      await http.post(`${lightbox}/contents`, w.alice.token, { url: `${t.baseUrl}${visible}` }).expect(201);
      const before = await Promise.all(
        [lightbox, `${lightbox}/contents`].map((p) => http.get(p, w.alice.token).expect(200)),
      );
      const values = { lightboxId, assetId: visible.split('/').pop() as string };
      const hijack = { name: 'Hijacked', description: 'theirs', url: `${t.baseUrl}${visible}` };
      const failures = [
        ...(await sweep('/rest/users/:ownerId/lightboxes', { ...values, ownerId: w.alice.id }, 404, hijack)),
        ...(await sweep(
          '/rest/users/:ownerId/lightboxes/:lightboxId',
          { ...values, ownerId: w.bob.id },
          404,
          hijack,
        )),
      ];
      expect(failures).toEqual([]);
      const after = await Promise.all(
        [lightbox, `${lightbox}/contents`].map((p) => http.get(p, w.alice.token).expect(200)),
      );
      expect(after.map((response) => response.body)).toEqual(before.map((response) => response.body));
      expect(
        (await http.get(`/rest/users/${w.alice.id}/lightboxes`, w.alice.token).expect(200)).body,
      ).toHaveLength(1);
    });

    it('a temp chunked file: 404 on every route, unusable as X-Copy-Temp-Chunked-File or through a signed URL', async () => {
      const created = await http.post('/rest/temp-chunked-files', w.alice.token, {}).expect(201);
      const file = pathOf(created.headers.location as string);
      await requestRoute(t, 'put', `${file}/0`, {
        token: w.alice.token,
        octets: { body: Buffer.from('mine') },
      }).expect(200);
      expect(
        await sweep('/rest/temp-chunked-files/:id', { id: file.split('/').pop() as string, index: 0 }, 404),
      ).toEqual([]);

      const target = await w.asset(w.bob.token);
      const copied = await upload(target, w.bob.token, Buffer.alloc(0), 'copy.txt').set(
        'X-Copy-Temp-Chunked-File',
        created.headers.location as string,
      );
      expect([400, 404]).toContain(copied.status);
      await http.get(`${target}/content`, w.bob.token).expect(404);

      const signed = await http
        .post('/rest/sign-url', w.bob.token, { url: `${t.baseUrl}${file}`, expirySeconds: 60 })
        .expect(303);
      const signedUrl = new URL(signed.headers.location as string);
      await t.http.get(`${signedUrl.pathname}${signedUrl.search}`).expect(404);
      const mine = await requestRoute(t, 'get', file, { token: w.alice.token }).buffer(true).expect(200);
      expect(String(mine.body)).toBe('mine');
    });

    it('unsubmitted and unapproved assets: 404 on every asset route, absent from search, until submitted or approved', async () => {
      const unsubmitted = await w.asset(w.alice.token, {
        submit: false,
        content: Buffer.from('draft'),
        filename: `draft-${randomBytes(4).toString('hex')}.txt`,
      });
      const pending = await w.asset(w.carol.token, {
        content: Buffer.from('pending'),
        filename: `pending-${randomBytes(4).toString('hex')}.txt`,
      });
      const ids = [unsubmitted, pending].map((path) => Number(path.split('/').pop()));
      // The default search and the unsubmitted=true search together: every asset the actor may find.
      const search = async (token: string) => {
        const found: number[] = [];
        for (const extra of ['', '&unsubmitted=true']) {
          const response = await http
            .get(`/rest/asset-search?assetIds=${ids.join(',')}${extra}`, token)
            .expect(200);
          found.push(...(response.body as Array<{ id: number }>).map((summary) => summary.id));
        }
        return found.sort((a, b) => a - b);
      };
      expect(await search(t.adminToken)).toEqual(ids);

      for (const id of ids) {
        const failures = [
          ...(await sweep('/rest/assets/:id', { id, version: 1 }, 404, { submitted: true })),
          ...(await sweep('/rest/assets/:assetId', { assetId: id }, 404, { userId: w.bob.id })),
          ...(await sweep('/rest/checkout/:assetId', { assetId: id }, 404, { userId: w.bob.id })),
        ];
        expect([id, failures]).toEqual([id, []]);
      }
      expect(await search(w.bob.token)).toEqual([]);
      const approvals = await http.get('/rest/pending-upload-approvals', w.bob.token);
      expect(JSON.stringify(approvals.body)).not.toContain(`/assets/${ids[1]}"`);
      const ownLightbox = await http
        .post(`/rest/users/${w.bob.id}/lightboxes`, w.bob.token, { name: 'Mine' })
        .expect(201);
      await http
        .post(`${pathOf(ownLightbox.headers.location as string)}/contents`, w.bob.token, {
          url: `${t.baseUrl}${unsubmitted}`,
        })
        .expect(400);

      // Nothing bob tried changed them; once submitted and approved, he sees both.
      expect((await http.get(unsubmitted, w.alice.token).expect(200)).body.submitted).toBe(false);
      expect((await http.get(pending, t.adminToken).expect(200)).body.approved).toBe(false);
      await http.put(unsubmitted, w.alice.token, { submitted: true }).expect(200);
      await http.post(`${pending}/approve`, t.adminToken, {}).expect(200);
      expect(await search(w.bob.token)).toEqual(ids);
      for (const path of [unsubmitted, pending])
        await http.get(`${path}/content`, w.bob.token).redirects(0).expect(303);
    });
  });

  describe('acting as another user', () => {
    it('a non-admin naming anyone else in ?userId is refused (403) on every protected route', async () => {
      const others = [w.alice.id, w.applicationUserId, w.admin.id];
      const cases = protectedRoutes().flatMap((route) => others.map((userId) => ({ route, userId })));
      const failures = await gatherFailures(cases, async ({ route, userId }) => {
        const response = await requestRoute(t, route.method, fillPath(route.path), {
          token: w.bob.token,
          query: { userId },
        });
        return response.status === 403
          ? undefined
          : `${routeName(route)}?userId=${userId}: ${response.status}`;
      });
      expect(failures).toEqual([]);
      const asSelf = await http.get(`/rest/authenticated-user?userId=${w.bob.id}`, w.bob.token).expect(200);
      expect(asSelf.body.username).toBe(w.bob.username);
      const twice = await http.get(
        `/rest/authenticated-user?userId=${w.bob.id}&userId=${w.alice.id}`,
        w.bob.token,
      );
      expect(twice.status).not.toBe(200);
    });

    it('a non-admin cannot create as someone else (createAsUserId, JSON or XML) nor search as them (username)', async () => {
      const total = async () =>
        Number(
          (await http.get('/rest/asset-search?page=0&pageSize=1', t.adminToken).expect(200)).headers[
            'x-total-count'
          ],
        );
      const before = await total();
      for (const createAsUserId of [w.alice.id, String(w.alice.id), w.applicationUserId, w.admin.id]) {
        await http
          .post('/rest/assets', w.bob.token, { accessLevels: [{ id: w.level }], createAsUserId })
          .expect(403);
      }
      const xml = `<createAsset><accessLevels><accessLevel><id>${w.level}</id></accessLevel></accessLevels><createAsUserId>${w.alice.id}</createAsUserId></createAsset>`;
      await t.http
        .post('/rest/assets')
        .auth(w.bob.token, { type: 'bearer' })
        .type('application/xml')
        .send(xml)
        .expect(403);
      expect(await total()).toBe(before);
      await http
        .get(`/rest/asset-search?username=${encodeURIComponent(w.alice.username)}`, w.bob.token)
        .expect(403);
    });

    it('admins and the application user may act as another user, who then acts with their own rights', async () => {
      for (const token of [w.admin.token, t.adminToken]) {
        const acting = await http.get(`/rest/authenticated-user?userId=${w.alice.id}`, token).expect(200);
        expect(acting.body.username).toBe(w.alice.username);
        await http.get(`/rest/users?userId=${w.alice.id}`, token).expect(403);
        const created = await http
          .post('/rest/assets', token, { accessLevels: [{ id: w.level }], createAsUserId: w.alice.id })
          .expect(201);
        const asset = await http.get(pathOf(created.headers.location as string), w.alice.token).expect(200);
        const addedBy = (asset.body.attributes as Array<{ id: string; value: string }>).find(
          (a) => a.id === '8',
        );
        expect(addedBy?.value).toContain(w.alice.username);
      }
    });
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
        expect(parts?.[1]).not.toMatch(/[\\/%]|^\./);
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
