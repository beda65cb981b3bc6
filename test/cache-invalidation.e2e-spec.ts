import { CacheGenerations, GENERATIONS_REFRESH_MS } from '@dam/database';
import { accessLevelRequests, Created } from './helpers/access-level-requests';
import { bearerRequests, pathOf } from './helpers/bearer-requests';
import { createTestDatabase, MATRIX, TestDatabase } from './helpers/databases';
import { TestApp, TestUser } from './helpers/test-app';

/** The bound of issue 14: every instance answers correctly within 2 s of a write on another. */
const WITHIN_MS = 2000;
/**
 * B rereads the generations this often here. The service's period (GENERATIONS_REFRESH_MS, 1 s) leaves
 * one period of the bound to the requests; a loaded test machine needs more, so B refreshes 4x faster
 * than the bound and the bound keeps 3x slack over what is proved: a write is seen after one period.
 */
const TEST_REFRESH_MS = WITHIN_MS / 4;

/**
 * Two app instances in this process on one database (MariaDB on the mysql matrix, one SQLite file on
 * the embedded one): a write through A must change B's cached answers (token -> actor, grants, level
 * tree, attribute catalogue) within 2 s, through the generation counters both read.
 */
describe(`caches across instances on one database (${MATRIX})`, () => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  let viewer: TestUser;
  let level: Created;
  let group: Created;
  let assetPath: string;
  const onA = bearerRequests(() => a);
  const onB = bearerRequests(() => b);

  beforeAll(async () => {
    database = await createTestDatabase(MATRIX, { migrated: true });
    a = await TestApp.start({ database });
    b = await TestApp.start({ database });
    b.app.get(CacheGenerations).refreshMs = TEST_REFRESH_MS;
    const setup = accessLevelRequests(() => a);
    level = await setup.createLevel(`shared-${Date.now()}`);
    group = await setup.createGroup('shared viewers', { [level.url]: ['view'] });
    // B booted last: its DAM_CLIENT_SECRET is the client's secret now, so B logs users in.
    viewer = await b.createUser();
    await setup.joinGroups(viewer, [group]);
    const created = await onA
      .post('/rest/assets', a.adminToken, { accessLevels: [{ id: level.id }] })
      .expect(201);
    assetPath = pathOf(created.body.url as string);
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  /** Polls B until `check` holds; returns the milliseconds it took (fails after WITHIN_MS + slack). */
  async function delayUntil(check: () => Promise<boolean>): Promise<number> {
    const started = Date.now();
    while (!(await check())) {
      if (Date.now() - started > WITHIN_MS + 1000) throw new Error(`not seen within ${WITHIN_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return Date.now() - started;
  }

  it('the service rereads the generations within half the bound', () => {
    expect(GENERATIONS_REFRESH_MS).toBeLessThanOrEqual(WITHIN_MS / 2);
  });

  const statusOnB = async (path: string, token: string): Promise<number> =>
    (await onB.get(path, token)).status;

  it('a changed group permission', async () => {
    await onB.get(assetPath, viewer.token).expect(200);
    await onA.get(assetPath, viewer.token).expect(200);
    await onA.put(`/rest/groups/${group.id}`, a.adminToken, { accessLevelPermissions: [] }).expect(200);
    await onA.get(assetPath, viewer.token).expect(404);
    const took = await delayUntil(async () => (await statusOnB(assetPath, viewer.token)) === 404);
    expect(took).toBeLessThanOrEqual(WITHIN_MS);
    await onA
      .put(`/rest/groups/${group.id}`, a.adminToken, {
        accessLevelPermissions: [{ accessLevelUrl: level.url, permissions: ['view'] }],
      })
      .expect(200);
    expect(
      await delayUntil(async () => (await statusOnB(assetPath, viewer.token)) === 200),
    ).toBeLessThanOrEqual(WITHIN_MS);
  });

  it('a moved access level', async () => {
    const setup = accessLevelRequests(() => a);
    const elsewhere = await setup.createLevel(`elsewhere-${Date.now()}`);
    const child = await setup.createLevel(`child-${Date.now()}`, { parent: level.url });
    const created = await onA
      .post('/rest/assets', a.adminToken, { accessLevels: [{ id: child.id }] })
      .expect(201);
    const path = pathOf(created.body.url as string);
    // B learns of the new level within the bound too.
    expect(await delayUntil(async () => (await statusOnB(path, viewer.token)) === 200)).toBeLessThanOrEqual(
      WITHIN_MS,
    );
    await onA.put(pathOf(child.url), a.adminToken, { parent: elsewhere.url }).expect(200);
    await onA.get(path, viewer.token).expect(404);
    expect(await delayUntil(async () => (await statusOnB(path, viewer.token)) === 404)).toBeLessThanOrEqual(
      WITHIN_MS,
    );
  });

  it('a new attribute', async () => {
    const label = `Fresh ${Date.now()}`;
    const hasIt = async (): Promise<boolean> => {
      const response = await onB.get(assetPath, a.adminToken).expect(200);
      return response.body.attributes.some((attribute: { name: string }) => attribute.name === label);
    };
    expect(await hasIt()).toBe(false);
    await onA.post('/rest/attributes', a.adminToken, { label, typeId: 1 }).expect(201);
    expect(await delayUntil(hasIt)).toBeLessThanOrEqual(WITHIN_MS);
  });

  it('a revoked token', async () => {
    const other = await b.createUser();
    await onB.get('/rest/authenticated-user', other.token).expect(200);
    await a.http
      .post('/oauth/revoke')
      .type('form')
      .send({ token: other.token, client_id: b.clientId, client_secret: b.clientSecret })
      .expect(200);
    await onA.get('/rest/authenticated-user', other.token).expect(401);
    const took = await delayUntil(
      async () => (await statusOnB('/rest/authenticated-user', other.token)) === 401,
    );
    expect(took).toBeLessThanOrEqual(WITHIN_MS);
  });
});
