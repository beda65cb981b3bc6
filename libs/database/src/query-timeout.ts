import { AsyncLocalStorage } from 'node:async_hooks';
import { Logger } from '@nestjs/common';
import type { DataSource, QueryRunner, ReplicationMode } from 'typeorm';
import { DependencyTimeout } from '@dam/errors';

/** The part of a mysql2 pool connection used here. */
interface PooledConnection {
  destroy(): void;
  /** The server's id of the connection (what `KILL QUERY` names). */
  threadId?: number | null;
}

/** The part of mysql2's pool (TypeORM's MysqlDriver.pool) used to stop an abandoned statement. */
interface KillingPool {
  query(sql: string, values: unknown[], callback: (error: unknown) => void): unknown;
}

/** Kills at most this many abandoned statements at once (each holds one pooled connection meanwhile). */
const MAX_KILLS_IN_FLIGHT = 2;

/** The private state of TypeORM's MysqlQueryRunner that a deadline must reach. */
interface MysqlRunnerState {
  databaseConnection?: PooledConnection;
  databaseConnectionPromise?: Promise<PooledConnection>;
}

const logger = new Logger('Database');

/** The deadline of the queries issued inside `withQueryDeadline`, in place of the installed one. */
const scopedDeadline = new AsyncLocalStorage<number>();

/**
 * Runs `work` with another query deadline than DAM_DATABASE_TIMEOUT_MS for every query it issues, awaited
 * or not. The maintenance jobs run in one (DAM_JOB_DATABASE_TIMEOUT_MS): a recount over a million assets
 * is a single statement of many seconds, while a request's query that slow means the database is in
 * trouble.
 */
export function withQueryDeadline<T>(timeoutMs: number, work: () => Promise<T>): Promise<T> {
  return scopedDeadline.run(timeoutMs, work);
}

/**
 * Gives every query of `dataSource` (MySQL/MariaDB) a deadline of `timeoutMs`, covering both the wait
 * for a pooled connection and the statement itself. A query past it fails with DependencyTimeout (503,
 * "the database did not answer within ... ms") and its connection is destroyed, not returned to the pool:
 * a connection with a statement still pending would hold every later command queued behind it, and the
 * server rolls back an open transaction when the connection goes. New queries then open fresh
 * connections (bounded by the pool's connectTimeout), so the service recovers on its own once the
 * database answers again.
 *
 * mysql2's own per-query `timeout` (TypeORM's `enableQueryTimeout`) only rejects the promise: the
 * connection keeps the unanswered command and goes back to the pool, which is why this wraps the query
 * runner instead. Installed after migrations, which may legitimately run long. SQLite is left alone: its
 * statements run synchronously (busy_timeout bounds its lock waits).
 */
export function installQueryTimeout(dataSource: DataSource, timeoutMs: number): void {
  const type = dataSource.options.type;
  if (type !== 'mysql' && type !== 'mariadb') return;
  const driver = dataSource.driver;
  const createQueryRunner = driver.createQueryRunner.bind(driver);
  const killer = new StatementKiller(() => (driver as unknown as { pool?: KillingPool }).pool);
  driver.createQueryRunner = (mode: ReplicationMode): QueryRunner => {
    const runner = createQueryRunner(mode);
    withDeadline(runner, timeoutMs, killer);
    return runner;
  };
}

/**
 * Stops, on the server, the statement of a connection abandoned at its deadline: closing the connection
 * does not, since MySQL and MariaDB notice a gone client only when the statement ends, so a 503'd
 * search's `COUNT(*)` would go on reading for seconds and slow every request after it. `KILL QUERY
 * <thread id>` through another pooled connection of the same server (the driver's own pool, not a query
 * runner: no deadline of ours, no recursion), without waiting for it; failures are only logged (a
 * database that hangs answers neither). A user may kill its own connections' statements without any
 * privilege.
 */
class StatementKiller {
  private inFlight = 0;

  constructor(private readonly pool: () => KillingPool | undefined) {}

  kill(threadId: number | null | undefined): void {
    const pool = this.pool();
    if (threadId === null || threadId === undefined || pool === undefined) return;
    if (this.inFlight >= MAX_KILLS_IN_FLIGHT) {
      logger.warn(`statement of connection ${threadId} left running: ${this.inFlight} kills in flight`);
      return;
    }
    this.inFlight++;
    pool.query('KILL QUERY ?', [threadId], (error) => {
      this.inFlight--;
      if (error !== null && error !== undefined) {
        logger.warn(`could not stop the statement of connection ${threadId}: ${String(error)}`);
      }
    });
  }
}

function withDeadline(runner: QueryRunner, timeoutMs: number, killer: StatementKiller): void {
  const query = runner.query.bind(runner) as (...args: unknown[]) => Promise<unknown>;
  const state = runner as unknown as MysqlRunnerState;
  runner.query = ((...args: unknown[]) =>
    new Promise<unknown>((resolve, reject) => {
      const deadline = scopedDeadline.getStore() ?? timeoutMs;
      const timer = setTimeout(() => {
        reject(new DependencyTimeout('the database', deadline));
        abandon(state, String(args[0]).slice(0, 200), deadline, killer);
      }, deadline);
      query(...args).then(
        (result) => {
          clearTimeout(timer);
          resolve(result);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    })) as QueryRunner['query'];
}

/**
 * Destroys the runner's connection, now or as soon as the pool hands it over, and has the server stop
 * the statement it was running (a connection still awaited from the pool ran none). The runner keeps
 * pointing at the destroyed connection, so anything else it is asked (the ROLLBACK of its transaction)
 * fails at once rather than running on another connection.
 */
function abandon(state: MysqlRunnerState, sql: string, timeoutMs: number, killer: StatementKiller): void {
  logger.warn(`query timed out after ${timeoutMs} ms, closing its connection: ${sql}`);
  killer.kill(state.databaseConnection?.threadId);
  const destroy = (connection: PooledConnection): void => {
    try {
      connection.destroy();
    } catch {
      // already closed
    }
  };
  if (state.databaseConnection !== undefined) destroy(state.databaseConnection);
  else state.databaseConnectionPromise?.then(destroy, () => undefined);
}
