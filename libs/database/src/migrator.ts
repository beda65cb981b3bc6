import { Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource, QueryFailedError } from 'typeorm';
import { privateFileSync } from '@dam/core';

const LOCK_NAME = 'dam_schema_migrations';
const LOCK_TIMEOUT_SECONDS = 120;

/**
 * Runs pending migrations. Processes that boot together (API instances, the CLI) take a lock first, so
 * only one of them migrates and the others find the work done: a named lock on MySQL, and on SQLite a
 * write transaction on a lock file next to the database (SQLite's own file locks, released if the
 * holder dies).
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const logger = new Logger('Migrations');
  const release = await lock(dataSource);
  try {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    for (const migration of applied) logger.log(`applied ${migration.name}`);
    return applied.map((migration) => migration.name);
  } finally {
    await release();
  }
}

type Release = () => Promise<void>;

function lock(dataSource: DataSource): Promise<Release> {
  const { options } = dataSource;
  if (options.type === 'mysql' || options.type === 'mariadb') return lockMysql(dataSource);
  if (options.type === 'better-sqlite3' && options.database !== ':memory:')
    return lockSqlite(options.database);
  return Promise.resolve(async () => undefined);
}

async function lockMysql(dataSource: DataSource): Promise<Release> {
  const runner = dataSource.createQueryRunner();
  try {
    const [row] = (await runner.query('SELECT GET_LOCK(?, ?) AS locked', [
      LOCK_NAME,
      LOCK_TIMEOUT_SECONDS,
    ])) as Array<{
      locked: number | null;
    }>;
    if (Number(row?.locked) !== 1) throw new Error('could not take the schema migration lock within 120 s');
  } catch (error) {
    await runner.release();
    throw error;
  }
  return async () => {
    await runner.query('SELECT RELEASE_LOCK(?)', [LOCK_NAME]).catch(() => undefined);
    await runner.release();
  };
}

/** better-sqlite3 blocks the event loop while it waits for a lock, so this polls instead of waiting. */
async function lockSqlite(databasePath: string): Promise<Release> {
  const lockPath = `${databasePath}.migrations-lock`;
  privateFileSync(lockPath); // beside the database file, as private (private-files.ts)
  const lockFile = await new DataSource({
    type: 'better-sqlite3',
    database: lockPath,
    timeout: 0,
  }).initialize();
  const deadline = Date.now() + LOCK_TIMEOUT_SECONDS * 1000;
  for (;;) {
    try {
      await lockFile.query('BEGIN IMMEDIATE');
      break;
    } catch (error) {
      if (!isBusy(error) || Date.now() > deadline) {
        await lockFile.destroy();
        throw new Error('could not take the schema migration lock', { cause: error });
      }
      await sleep(50);
    }
  }
  return async () => {
    await lockFile.query('COMMIT').catch(() => undefined);
    await lockFile.destroy();
  };
}

function isBusy(error: unknown): boolean {
  return (
    error instanceof QueryFailedError &&
    (error.driverError as { code?: string } | undefined)?.code === 'SQLITE_BUSY'
  );
}
