import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Connection, RowDataPacket } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { AppConfig } from '@dam/core';
import { dataSourceOptions, runMigrations } from '@dam/database';
import { MIGRATIONS } from '@dam/migrations';

/**
 * Migrated templates: every e2e file used to run all the migrations on its fresh database (a third of a
 * second on SQLite, several seconds of DDL on MariaDB, for each of ~170 boots). The first file that
 * needs one migrates a template once, with the app's own migrator; the others copy it (SQLite: the
 * file; MariaDB: each table's CREATE statement and its seed rows, test/helpers/mysql-spares.ts, which also
 * keeps clones ready). A template is named by a digest of
 * the migrations' sources, so a changed migration makes a new one instead of reusing a stale schema.
 * Specs of the migrations themselves (and the CLI's `migrate`) still start from an empty database.
 */
export function migrationsDigest(): string {
  const folder = path.join(__dirname, '..', '..', 'libs', 'migrations', 'src');
  const hash = createHash('sha256');
  for (const name of fs.readdirSync(folder).sort()) {
    if (!name.endsWith('.ts') || name.endsWith('.spec.ts')) continue;
    hash.update(name).update(fs.readFileSync(path.join(folder, name)));
  }
  return hash.digest('hex').slice(0, 16);
}

async function migrate(env: Record<string, string>): Promise<void> {
  const config = AppConfig.fromEnv({
    DAM_CLIENT_ID: 'e2e-template',
    DAM_CLIENT_SECRET: randomBytes(18).toString('base64url'),
    ...env,
  });
  const dataSource = await new DataSource(dataSourceOptions(config, MIGRATIONS)).initialize();
  try {
    await runMigrations(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

/** The path of a migrated SQLite file (made on first use; a rename publishes it whole). */
export async function sqliteTemplate(): Promise<string> {
  const template = path.join(os.tmpdir(), `dam-e2e-template-${migrationsDigest()}.sqlite`);
  if (fs.existsSync(template)) return template;
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-e2e-template-'));
  try {
    await migrate({ DAM_DATA_DIR: workDir });
    // Closing the last connection checkpointed the WAL into the file: it alone holds the schema.
    fs.renameSync(path.join(workDir, 'dam.sqlite'), template);
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
  return template;
}

/** Copies the migrated SQLite template into `dataDir` as the app's database file. */
export async function copySqliteTemplate(dataDir: string): Promise<void> {
  const target = path.join(dataDir, 'dam.sqlite');
  fs.copyFileSync(await sqliteTemplate(), target);
  fs.chmodSync(target, 0o600);
}

const TEMPLATE_LOCK = 'dam_e2e_template';

/** The name of a migrated MariaDB schema on the server of `serverUrl`, made under a lock on first use. */
export async function mysqlTemplate(admin: Connection, serverUrl: string): Promise<string> {
  const name = `dam_e2e_template_${migrationsDigest()}`;
  const [locked] = await rows(admin, 'SELECT GET_LOCK(?, 300) AS locked', [TEMPLATE_LOCK]);
  if (Number(locked?.locked) !== 1) throw new Error('could not take the e2e template lock');
  try {
    if (await isComplete(admin, name)) return name;
    await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-e2e-template-'));
    try {
      await migrate({ DAM_DATA_DIR: dataDir, DATABASE_URL: `${serverUrl.replace(/\/+$/, '')}/${name}` });
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    return name;
  } finally {
    await admin.query('SELECT RELEASE_LOCK(?)', [TEMPLATE_LOCK]);
  }
}

/** A template is complete when its `migrations` table lists every migration (a builder may have died). */
async function isComplete(admin: Connection, name: string): Promise<boolean> {
  const [table] = await rows(
    admin,
    'SELECT COUNT(*) AS n FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?',
    [name, 'migrations'],
  );
  if (Number(table?.n) !== 1) return false;
  const [applied] = await rows(admin, `SELECT COUNT(*) AS n FROM \`${name}\`.migrations`);
  return Number(applied?.n) === MIGRATIONS.length;
}

async function rows(connection: Connection, sql: string, params: unknown[] = []): Promise<RowDataPacket[]> {
  const [result] = await connection.query<RowDataPacket[]>(sql, params);
  return result;
}
