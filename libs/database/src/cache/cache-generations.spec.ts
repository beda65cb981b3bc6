import { DataSource, EntityManager, EntitySubscriberInterface, QueryRunner } from 'typeorm';
import { CacheGenerations } from './cache-generations';

/** A DataSource double whose `cache_generations` is a map; counts the reads of it. */
function setup(type = 'better-sqlite3') {
  const stored = new Map<string, number>();
  const statements: string[] = [];
  const run = async (sql: string, params: unknown[] = []): Promise<unknown> => {
    statements.push(sql);
    if (sql.startsWith('SELECT'))
      return [...stored].map(([name, generation]) => ({ name, generation: String(generation) }));
    const name = String(params[0]);
    stored.set(name, (stored.get(name) ?? 0) + 1);
    return [];
  };
  const subscribers: EntitySubscriberInterface[] = [];
  const dataSource = {
    options: { type },
    query: run,
    manager: { query: run },
    subscribers,
  } as unknown as DataSource;
  const generations = new CacheGenerations(dataSource);
  generations.onModuleInit();
  const reads = () => statements.filter((sql) => sql.startsWith('SELECT')).length;
  return { generations, stored, statements, reads, subscribers, run };
}

describe('CacheGenerations', () => {
  afterEach(() => jest.useRealTimers());

  it('reads every generation in one query, at most once per refresh period, shared by concurrent callers', async () => {
    const { generations, reads } = setup();
    await Promise.all([generations.current('a'), generations.current('b'), generations.stamp(['a', 'b'])]);
    expect(reads()).toBe(1);
    await generations.current('a');
    expect(reads()).toBe(1);
    generations.refreshMs = 0;
    await generations.current('a');
    expect(reads()).toBe(2);
  });

  it('moves the version of a name whose stored generation changed (another instance bumped it)', async () => {
    const { generations, stored } = setup();
    generations.refreshMs = 0;
    stored.set('access', 1);
    const seen = await generations.current('access');
    expect(await generations.isCurrent('access', seen)).toBe(true);
    stored.set('access', 2);
    expect(await generations.isCurrent('access', seen)).toBe(false);
    const other = await generations.current('other');
    stored.set('access', 3);
    expect(await generations.current('other')).toBe(other);
  });

  it('a bump here takes effect at once, without waiting for the next read', async () => {
    const { generations, stored, reads } = setup();
    const seen = await generations.current('attributes');
    await generations.bump('attributes');
    expect(stored.get('attributes')).toBe(1);
    expect(await generations.isCurrent('attributes', seen)).toBe(false);
    expect(reads()).toBe(1);
  });

  it('upserts +1 in the dialect of the database', async () => {
    for (const [type, clause] of [
      ['mysql', 'ON DUPLICATE KEY UPDATE generation = generation + 1'],
      ['better-sqlite3', 'ON CONFLICT (name) DO UPDATE SET generation = generation + 1'],
    ]) {
      const { generations, statements } = setup(type);
      await generations.bump('x');
      expect(statements[0]).toContain(clause);
    }
  });

  it("runs in the writer's transaction and moves the version again when it ends", async () => {
    const { generations, subscribers, statements } = setup();
    const runner = { isTransactionActive: true } as QueryRunner;
    const manager = {
      queryRunner: runner,
      query: async (sql: string) => {
        statements.push(`tx: ${sql}`);
        return [];
      },
    } as unknown as EntityManager;
    const before = await generations.current('access-levels');
    await generations.bump('access-levels', manager);
    expect(statements.some((sql) => sql.startsWith('tx: INSERT'))).toBe(true);
    const during = await generations.current('access-levels');
    expect(during).not.toBe(before);
    (runner as { isTransactionActive: boolean }).isTransactionActive = false;
    for (const subscriber of subscribers)
      subscriber.afterTransactionCommit?.({ queryRunner: runner } as never);
    expect(await generations.current('access-levels')).not.toBe(during);
  });
});
