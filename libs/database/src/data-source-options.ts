import * as path from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import { AppConfig, privateFileSync, privateFolderSync, tightenExistingFilesSync } from '@dam/core';
import { SqlErrorLogger } from './sql-error-logger';

export type DatabaseKind = 'sqlite' | 'mysql';

export function databaseKind(config: AppConfig): DatabaseKind {
  return config.databaseUrl === undefined ? 'sqlite' : 'mysql';
}

/** The migrations a data source runs: the schema's history (`MIGRATIONS` of `@dam/migrations`). */
export type Migrations = NonNullable<DataSourceOptions['migrations']>;

/**
 * The one TypeORM options object, used by the API, the CLI and the tests. Schema changes only ever
 * come from `migrations` (the API's and the CLI's: `MIGRATIONS` of `@dam/migrations`, which the
 * platform module hands to `DatabaseModule`; none for a connection that only reads, like the replica).
 */
export function dataSourceOptions(config: AppConfig, migrations: Migrations): DataSourceOptions {
  const common = {
    migrations,
    migrationsRun: false,
    synchronize: false,
    logging: ['error', 'warn'] as ('error' | 'warn')[],
    logger: new SqlErrorLogger(),
  };
  if (config.databaseUrl !== undefined) {
    return {
      ...common,
      type: 'mysql',
      url: config.databaseUrl.replace(/^mariadb:/, 'mysql:'),
      timezone: 'Z',
      charset: 'utf8mb4_unicode_ci',
      supportBigNumbers: true,
      bigNumberStrings: false,
      // DAM_DATABASE_TIMEOUT_MS: the connect timeout, and the deadline of every query (slower ones are
      // logged, and the API's DatabaseModule fails them with a 503: query-timeout.ts).
      maxQueryExecutionTime: config.databaseTimeoutMs,
      extra: { connectionLimit: 20, enableKeepAlive: true, connectTimeout: config.databaseTimeoutMs },
    };
  }
  // 0700/0600: the file holds the URL-signing and webhook secrets. SQLite gives its -wal and -shm files
  // the mode of the database file.
  const database = path.join(config.dataDir, 'dam.sqlite');
  privateFolderSync(config.dataDir);
  privateFileSync(database);
  tightenExistingFilesSync([`${database}-wal`, `${database}-shm`]);
  return {
    ...common,
    type: 'better-sqlite3',
    database,
    enableWAL: true,
    prepareDatabase: (db: { pragma(statement: string): unknown }) => {
      db.pragma('busy_timeout = 5000');
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
    },
  };
}
