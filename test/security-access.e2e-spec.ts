import { randomBytes } from 'node:crypto';
import { bearerRequests, pathOf } from './helpers/bearer-requests';
import { contentRequests } from './helpers/content-fixtures';
import {
  documentedRoutes,
  fillPath,
  gatherFailures,
  requestRoute,
  Route,
  routeName,
  servedRoutes,
} from './helpers/route-inventory';
import { isPublic, PUBLIC_ROUTES, SecurityWorld } from './helpers/security-world';
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
      await t.http.get(`/rest/shared/${'A'.repeat(43)}/zip`).expect(404);
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
});
