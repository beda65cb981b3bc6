import { CacheGenerations } from '@dam/platform';
import { DataSource } from 'typeorm';
import { accessLevelRequests } from './helpers/access-level-requests';
import { bearerRequests, pathOf } from './helpers/bearer-requests';
import { MATRIX } from './helpers/databases';
import { TestApp, TestUser } from './helpers/test-app';

/**
 * Issue 14: a warm GET /rest/assets/{id} runs at most 3 SQL statements (the asset in one statement; the
 * token, actor, grants, level tree, attribute catalogue and uploader's name come from generation caches;
 * at most one read of the generations per second). Counts every statement the driver runs, so a new
 * query on this path fails here.
 */
/** The part of better-sqlite3's Database this reads. */
interface SqliteDatabase {
  prepare(sql: string): object;
}

describe(`statements per warm GET /rest/assets/{id} (${MATRIX})`, () => {
  let t: TestApp;
  let user: TestUser;
  let assetPath: string;
  const api = bearerRequests(() => t);

  beforeAll(async () => {
    t = await TestApp.start();
    const setup = accessLevelRequests(() => t);
    const level = await setup.createLevel(`counted-${Date.now()}`);
    const group = await setup.createGroup('counted viewers', { [level.url]: ['view', 'download', 'upload'] });
    user = await t.createUser();
    await setup.joinGroups(user, [group]);
    const attribute = await api
      .post('/rest/attributes', t.adminToken, { label: 'Counted', typeId: 1 })
      .expect(201);
    const created = await api
      .post('/rest/assets', user.token, { accessLevels: [{ id: level.id }] })
      .expect(201);
    assetPath = pathOf(created.body.url as string);
    await api
      .put(assetPath, t.adminToken, { attributes: [{ id: String(attribute.body.id), value: 'one value' }] })
      .expect(200);
  });

  afterAll(async () => {
    jest.restoreAllMocks();
    await t?.close();
  });

  /**
   * The statements run while `work` runs: on SQLite every statement better-sqlite3 executes (the hot
   * reads run prepared on its connection, beside TypeORM's query runner), on MySQL every statement sent
   * through the driver's query runner.
   */
  async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
    return MATRIX === 'sqlite' ? sqliteStatementsOf(work) : runnerStatementsOf(work);
  }

  async function sqliteStatementsOf(work: () => Promise<unknown>): Promise<string[]> {
    const connection = (t.app.get(DataSource).driver as unknown as { databaseConnection: SqliteDatabase })
      .databaseConnection;
    const statement = Object.getPrototypeOf(connection.prepare('SELECT 1')) as Record<string, unknown>;
    const spies = (['run', 'get', 'all', 'iterate'] as const).map((method) =>
      jest.spyOn(statement as Record<typeof method, () => unknown>, method),
    );
    try {
      await work();
      return spies.flatMap((spy) =>
        spy.mock.contexts.map((context) => String((context as { source: string }).source)),
      );
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  }

  async function runnerStatementsOf(work: () => Promise<unknown>): Promise<string[]> {
    const runner = t.app.get(DataSource).createQueryRunner();
    const prototype = Object.getPrototypeOf(runner) as { query: (sql: string) => Promise<unknown> };
    await runner.release();
    const spy = jest.spyOn(prototype, 'query');
    try {
      await work();
      return spy.mock.calls.map(([sql]) => String(sql));
    } finally {
      spy.mockRestore();
    }
  }

  const getAsset = () =>
    api
      .get(assetPath, user.token)
      .expect(200)
      .then((response) => {
        expect(response.body.attributes.some((a: { value: string }) => a.value === 'one value')).toBe(true);
        expect(response.body.attributes.some((a: { value: string }) => a.value === user.username)).toBe(true);
      });

  it('is at most 3 on a warm cache', async () => {
    await getAsset();
    const statements = await statementsOf(getAsset);
    console.log(
      `warm GET /rest/assets/{id} on ${MATRIX}: ${statements.length} statement(s)\n  ${statements.join('\n  ')}`,
    );
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.length).toBeLessThanOrEqual(3);
  });

  it('is exactly 1 while the generations read is current (the asset, in one statement)', async () => {
    const generations = t.app.get(CacheGenerations);
    const refreshMs = generations.refreshMs;
    generations.refreshMs = 60_000;
    try {
      await getAsset();
      const statements = await statementsOf(getAsset);
      expect(statements).toHaveLength(1);
      expect(statements[0]).toMatch(/FROM assets a WHERE a\.id = \?/);
    } finally {
      generations.refreshMs = refreshMs;
    }
  });

  it('reads the generations at most once per second however many requests run', async () => {
    // Warm on a fresh read of the generations: a bump of the set-up (users, grants) that the last read
    // predates would otherwise reload the caches inside the measured window.
    await getAsset();
    await new Promise((resolve) => setTimeout(resolve, t.app.get(CacheGenerations).refreshMs + 100));
    await getAsset();
    const statements = await statementsOf(() => Promise.all(Array.from({ length: 20 }, getAsset)));
    const reads = statements.filter((sql) => sql.includes('FROM cache_generations'));
    expect(reads.length).toBeLessThanOrEqual(1);
    expect(statements.length - reads.length).toBe(20);
  });
});
