import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { bearerRequests, pathOf } from './helpers/bearer-requests';
import { contentRequests } from './helpers/content-fixtures';
import { databaseDigest, snapshotDifferences, SnapshotScope, takeSnapshot } from './helpers/data-snapshot';
import {
  FuzzRequest,
  FuzzTargets,
  parameterIndexes,
  parameterKey,
  requestArbitrary,
  sendFuzzRequest,
  VALUE_KINDS,
} from './helpers/fuzz-requests';
import { ENTITY_XML, SPEC_FIELDS, SPEC_QUERIES } from './helpers/fuzz-values';
import { Grants } from './helpers/grant-fixtures';
import type { StreamedReply } from './helpers/raw-http';
import { Route, routeName, servedRoutes } from './helpers/route-inventory';
import { MATRIX } from './helpers/databases';
import type { TestObjectStore } from './helpers/object-store';
import { startMultipartObjectStore } from './helpers/s3rver-multipart';
import { TestApp, TestUser } from './helpers/test-app';

/**
 * Property-based robustness of every route the app serves (issue 8): odd ids, query parameters,
 * headers and bodies (malformed JSON and XML, wrong types, unicode) never make a 5xx, 4xx answers stay
 * one plain-text line, and a user without permissions changes nothing of anybody else's.
 *
 * The default run is a fixed sample: seed 20260801 and 2 requests per route and user (about 600 requests),
 * which reach every route and carry every kind of value the generators know (VALUE_KINDS; both are
 * checked). FUZZ_SEED replays another sample; FUZZ_RUNS widens it, e.g. a long run for a nightly job:
 * `FUZZ_RUNS=50 FUZZ_SEED=$(date +%Y%m%d) npx jest test/fuzz-routes.e2e-spec.ts` (README "Tests").
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_801);
const RUNS = Number(process.env.FUZZ_RUNS ?? 2);

/** A fixed seed per route, so adding a route does not change what the others are sent. */
function seedOf(route: Route): number {
  return SEED ^ createHash('sha256').update(routeName(route)).digest().readInt32BE(0);
}

describe('fuzzing every route', () => {
  let t: TestApp;
  let store: TestObjectStore | undefined;
  let victim: TestUser;
  let outsider: TestUser;
  let routes: Route[];
  let targets: FuzzTargets;
  let scope: SnapshotScope;
  const api = bearerRequests(() => t);
  const fixtures: Record<string, string> = {};

  const idOf = (url: string) => pathOf(url).split('/').pop() ?? '';
  const created = async (path: string, token: string, body: object) => {
    const url = (await api.post(path, token, body).expect(201)).headers.location as string;
    return { url, id: idOf(url) };
  };
  const firstOf = async (path: string) => {
    const [entry] = (await api.get(path, t.adminToken).expect(200)).body as Array<string | { url: string }>;
    return idOf(typeof entry === 'string' ? entry : entry.url);
  };

  beforeAll(async () => {
    // On S3, the tus route needs the multipart calls s3rver lacks (ListParts, Abort).
    store = MATRIX === 'mysql' ? await startMultipartObjectStore() : undefined;
    t = await TestApp.start({ objectStore: store });
    [victim, outsider] = [await t.createUser(), await t.createUser()];
    const grants = new Grants(t);
    const level = await grants.topLevel('Default');
    await grants.give(victim.id, [level], ['view', 'download', 'edit', 'upload', 'delete', 'approve']);
    await buildFixtures(level);
    targets = await targetsFromOpenApi();
    // Swagger's own pages under /docs are static; every other route is fuzzed.
    routes = servedRoutes(t).filter((route) => !/^\/docs($|\/|-)/.test(route.path));
    // The outsider may own temp chunked files (any user may create them); nothing else is theirs.
    const ownFiles = 'SELECT id FROM temp_chunked_files WHERE created_by_user_id = ?';
    scope = {
      keepRows: {
        temp_chunked_files: { where: 'id NOT IN (' + ownFiles + ')', parameters: [outsider.id] },
        temp_chunks: { where: 'temp_file_id NOT IN (' + ownFiles + ')', parameters: [outsider.id] },
      },
      ignoreObject: (key) =>
        key.startsWith('temp/') && !key.startsWith(`temp/${fixtures['temp-chunked-files']}/`),
    };
  });
  afterAll(async () => {
    await t?.close();
    await store?.stop();
  });

  /** One live resource of every kind, owned by the victim or the application user. */
  async function buildFixtures(level: number): Promise<void> {
    const { upload } = contentRequests(() => t);
    const asset = await created('/rest/assets', t.adminToken, { accessLevels: [{ id: level }] });
    const assetPath = pathOf(asset.url);
    await upload(assetPath, t.adminToken, Buffer.from('fixture content'), 'fixture.txt').expect(200);
    await api.put(`${assetPath}/checkout`, victim.token, {}).expect(200);
    const listAttribute = await created('/rest/attributes', t.adminToken, { label: 'Colour', typeId: 6 });
    const keywordAttribute = await created('/rest/attributes', t.adminToken, { label: 'Tags', typeId: 7 });
    const listValue = await created(
      `/rest/attributes/${listAttribute.id}/list-attribute-values`,
      t.adminToken,
      {
        value: 'Red',
      },
    );
    const keyword = await created('/rest/keywords', t.adminToken, {
      attributeUrl: keywordAttribute.url,
      name: 'sea',
    });
    const category = await created('/rest/categories', t.adminToken, { name: 'Fixture category' });
    const group = await created('/rest/groups', t.adminToken, { name: 'Fixture group' });
    const action = await created('/rest/publishing-actions', t.adminToken, {
      name: 'Feed',
      criteria: 'keywords=sea',
    });
    // Never called: TestApp delivers no webhooks (DAM_WEBHOOK_POLL_MS=0).
    const webhook = await created('/rest/admin/webhooks', t.adminToken, {
      url: 'https://8.8.8.8/hook',
      events: ['asset.*'],
    });
    const lightbox = await created(`/rest/users/${victim.id}/lightboxes`, victim.token, { name: 'Mine' });
    await api.post(`${pathOf(lightbox.url)}/contents`, victim.token, { url: asset.url }).expect(201);
    // With a password the fuzzer never sends: its public URLs answer 401 and count no download.
    const share = await api
      .post('/rest/shares', victim.token, { assetIds: [Number(asset.id)], password: 'fixture password' })
      .expect(201);
    const tempFile = await created('/rest/temp-chunked-files', victim.token, {});
    await t.http
      .put(`${pathOf(tempFile.url)}/0`)
      .auth(victim.token, { type: 'bearer' })
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.from('chunk zero'))
      .expect(200);
    await t.http
      .put(`/rest/access-levels/${level}/image`)
      .auth(t.adminToken, { type: 'bearer' })
      .set('Content-Type', 'application/octet-stream')
      .set('Content-Disposition', 'attachment; filename="level.png"')
      .send(Buffer.from('not really a png'))
      .expect(200);
    const tusUpload = await t.http
      .post('/rest/tus')
      .auth(victim.token, { type: 'bearer' })
      .set('Tus-Resumable', '1.0.0')
      .set('Upload-Length', '100')
      .set('Upload-Metadata', `assetId ${Buffer.from(String(asset.id)).toString('base64')}`)
      .expect(201);
    const [file]: Array<{ storage_key: string }> = await t.app
      .get(DataSource)
      .query('SELECT storage_key FROM asset_files WHERE asset_id = ?', [asset.id]);
    // A job that changes nothing in this database, and one finished run of it.
    const run = await api
      .post('/rest/admin/jobs/purge-expired-tokens/runs?dryRun=true', t.adminToken, {})
      .expect(202);
    // A deleted asset waiting in the trash.
    const doomed = await created('/rest/assets', t.adminToken, { accessLevels: [{ id: level }] });
    await api.delete(pathOf(doomed.url), t.adminToken).expect(204);
    const [trashed] = (await api.get('/rest/admin/trash', t.adminToken).expect(200)).body as Array<{
      id: number;
    }>;
    Object.assign(fixtures, {
      trash: String(trashed.id),
      jobs: 'purge-expired-tokens',
      runs: String((run.body as { id: number | string }).id),
      users: String(victim.id),
      groups: String(group.id),
      'access-levels': String(level),
      attributes: String(listAttribute.id),
      'list-attribute-values': idOf(listValue.url),
      keywords: String(keyword.id),
      'display-attribute-groups': await firstOf('/rest/display-attribute-groups'),
      'display-attribute-group': await firstOf('/rest/display-attribute-groups'),
      'asset-types': await firstOf('/rest/asset-types'),
      'embedded-data-mappings': await firstOf('/rest/embedded-data-mappings'),
      categories: String(category.id),
      assets: String(asset.id),
      versions: '1',
      checkout: String(asset.id),
      lightboxes: String(lightbox.id),
      contents: String(asset.id),
      'publishing-actions': String(action.id),
      'temp-chunked-files': String(tempFile.id),
      'id/index': '0',
      tus: idOf(tusUpload.headers.location as string),
      webhooks: webhook.id,
      files: file.storage_key,
      shares: String(share.body.id),
      shared: idOf(share.body.publicUrl as string),
      items: '1',
    });
    fixtures.urls = [
      asset.url,
      lightbox.url,
      tempFile.url,
      category.url,
      victim.url,
      keywordAttribute.url,
    ].join(' ');
  }

  async function targetsFromOpenApi(): Promise<FuzzTargets> {
    const document = (await t.http.get('/docs/openapi.json').expect(200)).body as {
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }> }>>;
      components?: { schemas?: Record<string, { properties?: Record<string, unknown> }> };
    };
    const queries = Object.values(document.paths).flatMap((item) =>
      Object.values(item).flatMap((operation) =>
        (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
      ),
    );
    const fields = Object.values(document.components?.schemas ?? {}).flatMap((schema) =>
      Object.keys(schema.properties ?? {}),
    );
    return {
      pathValues: (key) => fixtures[key],
      fieldNames: [...new Set([...SPEC_FIELDS, ...fields])],
      queryNames: [...new Set([...SPEC_QUERIES, ...queries])],
      urls: fixtures.urls.split(' '),
      userIds: [String(victim.id), String(outsider.id), '1', '-1', 'abc'],
    };
  }

  /** What every answer must satisfy, whoever asks. */
  function checkReply(request: FuzzRequest, reply: StreamedReply): void {
    const where = `${request.method} ${request.path}`;
    if (reply.status >= 500) throw new Error(`${where} answered ${reply.status}: ${reply.text}`);
    if (reply.status < 400 || request.path.startsWith('/oauth/')) return;
    if (!/^text\/plain/.test(reply.headers['content-type'] ?? '')) {
      throw new Error(`${where} answered ${reply.status} as ${reply.headers['content-type']}: ${reply.text}`);
    }
    if (/\n|\bat .+:\d+:\d+|SELECT |INSERT |UPDATE |SqliteError|ER_[A-Z_]+|root:x:0:0/.test(reply.text)) {
      throw new Error(`${where} answered ${reply.status} with internals: ${reply.text}`);
    }
  }

  interface FuzzChecks {
    /** After each request: throws when the request broke a rule. */
    afterRequest?: (request: FuzzRequest) => Promise<void>;
    /** After all requests to a route: a failure report, or undefined. */
    afterRoute?: () => Promise<string | undefined>;
  }

  /** What a run reached: the routes that answered (not "no resource at"), the kinds of value it sent. */
  interface Reached {
    routes: Set<string>;
    kinds: Set<string>;
  }
  const reached = (): Reached => ({ routes: new Set(), kinds: new Set() });
  const missed = (run: Reached) => ({
    routes: routes.map(routeName).filter((name) => !run.routes.has(name)),
    kinds: VALUE_KINDS.filter((kind) => !run.kinds.has(kind)),
  });

  /** Sends RUNS requests to every route as `token`; the report of every failing route (seed included). */
  async function fuzzRoutes(token: string, checks: FuzzChecks, run: Reached): Promise<string[]> {
    const failures: string[] = [];
    for (const route of routes) {
      const key = routeName(route);
      const property = fc.asyncProperty(requestArbitrary(route, targets, token), async (request) => {
        const reply = await sendFuzzRequest(t, request);
        if (!reply.text.startsWith('no resource at ')) run.routes.add(key);
        for (const kind of request.kinds ?? []) run.kinds.add(kind);
        checkReply(request, reply);
        await checks.afterRequest?.(request);
      });
      const details = await fc.check(property, { seed: seedOf(route), numRuns: RUNS, endOnFailure: true });
      if (details.failed) {
        const error =
          details.errorInstance instanceof Error
            ? details.errorInstance.message
            : String(details.errorInstance);
        failures.push(
          `${key} (FUZZ_SEED=${SEED}, route seed ${details.seed}): ${error}\n${fc.defaultReportMessage(details)}`,
        );
      }
      const late = await checks.afterRoute?.();
      if (late !== undefined)
        failures.push(`${key} (FUZZ_SEED=${SEED}, route seed ${seedOf(route)}): ${late}`);
    }
    return failures;
  }

  describe('what the fuzzer found, kept as plain regressions', () => {
    it('a Host header with a port beyond 65535 is a 400 (not one of the service names), not a 500', async () => {
      const response = await api.get('/rest', t.adminToken).set('Host', 'localhost:99999').expect(400);
      expect(response.text).toBe('Host "localhost:99999" is not a name of this service');
    });

    it('an id with a line break is quoted on one line in the 404', async () => {
      const response = await api.get('/rest/display-attribute-groups/a%0D%0Ab', t.adminToken).expect(404);
      expect(response.text).toBe('display attribute group a\\u000d\\u000ab does not exist');
    });
  });

  it('has a real resource for every path parameter of every served route', () => {
    const missing = routes.flatMap((route) => {
      const segments = route.path.split('/');
      return parameterIndexes(route.path)
        .filter((index) => fixtures[parameterKey(segments, index)] === undefined)
        .map((index) => `${routeName(route)}: ${parameterKey(segments, index)}`);
    });
    expect(missing).toEqual([]);
    expect(routes.length).toBeGreaterThan(100);
  });

  it('a user without any permission never gets a 5xx and changes nothing of anybody else', async () => {
    const run = reached();
    // Rows are compared after every write request (through a cheap digest first); rows after reads, and
    // stored objects, after every route.
    let before = await takeSnapshot(t, scope);
    let digest = await databaseDigest(t);
    const failures = await fuzzRoutes(
      outsider.token,
      {
        afterRequest: async (request) => {
          if (request.method === 'GET') return;
          const now = await databaseDigest(t);
          if (now === digest) return;
          digest = now;
          const after = await takeSnapshot(t, scope, false);
          const changes = snapshotDifferences({ ...before, objects: [] }, after);
          before = { ...after, objects: before.objects };
          if (changes.length > 0) {
            throw new Error(`${request.method} ${request.path} changed data:\n${changes.join('\n')}`);
          }
        },
        afterRoute: async () => {
          const after = await takeSnapshot(t, scope);
          const changes = snapshotDifferences(before, after);
          before = after;
          return changes.length === 0 ? undefined : `its requests changed data:\n${changes.join('\n')}`;
        },
      },
      run,
    );
    expect(failures).toEqual([]);
    expect(missed(run)).toEqual({ routes: [], kinds: [] });
  });

  it('XML entity attacks are never resolved or expanded on any route that takes a body: answered fast, no 5xx', async () => {
    const writes = routes.filter((route) => route.method === 'post' || route.method === 'put');
    const failures: string[] = [];
    for (const route of writes) {
      const segments = route.path.split('/');
      for (const index of parameterIndexes(route.path))
        segments[index] = fixtures[parameterKey(segments, index)];
      for (const xml of ENTITY_XML) {
        const request: FuzzRequest = {
          method: route.method.toUpperCase(),
          path: segments.join('/'),
          query: '',
          headers: { authorization: `Bearer ${t.adminToken}` },
          body: { contentType: 'application/xml', data: xml },
        };
        const started = Date.now();
        const reply = await sendFuzzRequest(t, request);
        const took = Date.now() - started;
        try {
          checkReply(request, reply);
          if (took > 2000) throw new Error(`${routeName(route)} took ${took} ms`);
          if (/root:|lollollol/.test(reply.text))
            throw new Error(`${routeName(route)} echoed: ${reply.text}`);
        } catch (error) {
          failures.push((error as Error).message);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(writes.length).toBeGreaterThan(30);
  });

  it('an administrator never gets a 5xx on any route, whatever the request', async () => {
    const run = reached();
    const failures = await fuzzRoutes(t.adminToken, {}, run);
    expect(failures).toEqual([]);
    expect(missed(run)).toEqual({ routes: [], kinds: [] });
  });
});
