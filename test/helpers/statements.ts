import { DataSource } from 'typeorm';

/** The part of better-sqlite3's Database this reads. */
interface SqliteDatabase {
  prepare(sql: string): object;
}

/**
 * The SQL statements `dataSource` runs while `work` runs, in order per kind of call: on SQLite every
 * statement better-sqlite3 executes (hot reads run prepared on its connection, beside TypeORM's query
 * runner), on MySQL every statement sent through the driver's query runner. For specs that count the
 * statements of a request (jest spies, restored before returning).
 */
export async function statementsRunBy(
  dataSource: DataSource,
  work: () => Promise<unknown>,
): Promise<string[]> {
  return dataSource.options.type === 'better-sqlite3'
    ? sqliteStatements(dataSource, work)
    : runnerStatements(dataSource, work);
}

async function sqliteStatements(dataSource: DataSource, work: () => Promise<unknown>): Promise<string[]> {
  const connection = (dataSource.driver as unknown as { databaseConnection: SqliteDatabase })
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

async function runnerStatements(dataSource: DataSource, work: () => Promise<unknown>): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
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
