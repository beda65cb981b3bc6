import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createConnection } from 'mysql2/promise';
import { copySqliteTemplate, mysqlTemplate } from './migrated-templates';
import { claimSpare, cloneInto, createDatabase, ensureFiller, handBack } from './mysql-spares';

/** Which matrix the e2e suite runs on: embedded (SQLite + fs) or mysql (MariaDB/MySQL + minio via s3rver). */
export type Matrix = 'sqlite' | 'mysql';
export const MATRIX: Matrix = process.env.DAM_TEST_MATRIX === 'mysql' ? 'mysql' : 'sqlite';

/** Server URL without a database; CI creates this user (see .ci/run). */
export const MYSQL_SERVER_URL = process.env.DAM_TEST_MYSQL_URL ?? 'mysql://dam_test:dam_test@127.0.0.1:3306';

export interface TestDatabase {
  /** DATABASE_URL for the app, or undefined for the embedded SQLite in dataDir. */
  databaseUrl: string | undefined;
  dataDir: string;
  drop(): Promise<void>;
}

export interface TestDatabaseOptions {
  /**
   * A copy of the migrated schema (test/helpers/migrated-templates.ts) instead of an empty database: what
   * the app's boot would make, without its seconds of DDL. Specs of the migrations leave it out.
   */
  migrated?: boolean;
}

/** A fresh database (and data folder) for one test file, empty unless `migrated`; dropped afterwards. */
export async function createTestDatabase(
  matrix: Matrix = MATRIX,
  options: TestDatabaseOptions = {},
): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-e2e-'));
  if (matrix === 'sqlite') {
    if (options.migrated === true) await copySqliteTemplate(dataDir);
    return {
      databaseUrl: undefined,
      dataDir,
      drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const admin = await createConnection({ uri: MYSQL_SERVER_URL, multipleStatements: true });
  let name: string;
  try {
    if (options.migrated === true) {
      // A clone made ahead by the filler (test/helpers/mysql-spares.ts) if there is one, else one made now.
      const template = await mysqlTemplate(admin, MYSQL_SERVER_URL);
      const spare = await claimSpare(admin, template);
      name = spare ?? freshName();
      if (spare === undefined) {
        await createDatabase(admin, name);
        await cloneInto(admin, template, name);
      }
      await ensureFiller(admin, MYSQL_SERVER_URL, template);
    } else {
      name = freshName();
      await createDatabase(admin, name);
    }
  } finally {
    await admin.end();
  }
  return {
    databaseUrl: `${MYSQL_SERVER_URL.replace(/\/+$/, '')}/${name}`,
    dataDir,
    drop: async () => {
      const connection = await createConnection(MYSQL_SERVER_URL);
      try {
        if (!(await handBack(connection, name)))
          await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
      } finally {
        await connection.end();
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function freshName(): string {
  return `dam_e2e_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

/** Runs one statement on a MySQL test database over a connection of its own (specs of several instances). */
export async function sqlOn<T>(
  database: TestDatabase,
  statement: string,
  values: unknown[] = [],
): Promise<T[]> {
  const connection = await createConnection(database.databaseUrl ?? '');
  try {
    const [rows] = await connection.query(statement, values);
    return rows as T[];
  } finally {
    await connection.end();
  }
}
