import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import mysql from 'mysql2/promise';
import type { Connection, RowDataPacket } from 'mysql2/promise';

/**
 * Spare MariaDB test databases, made and dropped off the tests' path.
 *
 * Cloning the migrated template (62 CREATE TABLEs) takes 2-4 s and dropping a database 1-2 s, nearly all of
 * it waiting on MariaDB's disk, not CPU; every e2e file of the MariaDB leg paid both while its Jest worker sat
 * idle. A filler process (this file run by Node, which strips the types) keeps two clones of the current
 * template ready and drops the databases the files are done with; a file claims a spare and hands its
 * database back, and falls back to doing both itself when no filler runs. One filler per server: it holds
 * the lock FILLER_LOCK, and stops after a minute without work. Spares of another template (a changed
 * migration) are dropped when a filler starts.
 *
 * Run by Node directly, this file imports nothing of the app (it only copies tables), and uses only syntax
 * that Node's type stripping accepts.
 */
const POOL = 'dam_e2e_spares';
const FILLER_LOCK = 'dam_e2e_spares_filler';
const SPARES_WANTED = 2;
const IDLE_MS = 60_000;

/** Creates `target` (already created, empty) as a copy of `template`: its tables, then their rows. */
export async function cloneInto(admin: Connection, template: string, target: string): Promise<void> {
  const tables = (
    await rows(admin, 'SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?', [
      template,
    ])
  ).map((row) => String(row.name));
  const creates: string[] = [];
  for (const name of tables) {
    const [row] = await rows(admin, `SHOW CREATE TABLE \`${template}\`.\`${name}\``);
    creates.push(String(row['Create Table']));
  }
  // Foreign keys name tables of the same schema unqualified; checks are off while the order is arbitrary.
  const copies = tables.map(
    (name) => `INSERT INTO \`${target}\`.\`${name}\` SELECT * FROM \`${template}\`.\`${name}\``,
  );
  await admin.query(
    [`USE \`${target}\``, 'SET foreign_key_checks = 0', ...creates, ...copies, 'SET foreign_key_checks = 1']
      .map((statement) => `${statement};`)
      .join('\n'),
  );
}

export async function createDatabase(admin: Connection, name: string): Promise<void> {
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
}

/** A ready clone of `template`, now the caller's, or undefined when there is none. */
export async function claimSpare(admin: Connection, template: string): Promise<string | undefined> {
  try {
    await admin.query('START TRANSACTION');
    const [spare] = await rows(
      admin,
      `SELECT name FROM \`${POOL}\`.spares WHERE template = ? ORDER BY made LIMIT 1 FOR UPDATE SKIP LOCKED`,
      [template],
    );
    if (spare !== undefined) await admin.query(`DELETE FROM \`${POOL}\`.spares WHERE name = ?`, [spare.name]);
    await admin.query('COMMIT');
    return spare === undefined ? undefined : String(spare.name);
  } catch (error) {
    await admin.query('ROLLBACK');
    // No filler ever ran on this server: there is no pool yet.
    if (isMissingPool(error)) return undefined;
    throw error;
  }
}

/** Leaves `name` for the filler to drop; false when no filler runs (the caller drops it). */
export async function handBack(admin: Connection, name: string): Promise<boolean> {
  if (!(await fillerRuns(admin))) return false;
  await admin.query(`INSERT IGNORE INTO \`${POOL}\`.doomed (name) VALUES (?)`, [name]);
  return true;
}

/** Starts a filler for `template` unless one runs (a second one would find the lock taken and stop). */
export async function ensureFiller(admin: Connection, serverUrl: string, template: string): Promise<void> {
  if (await fillerRuns(admin)) return;
  spawn(process.execPath, ['--no-warnings', __filename, serverUrl, template], {
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, NODE_OPTIONS: '' },
  }).unref();
}

async function fillerRuns(admin: Connection): Promise<boolean> {
  const [lock] = await rows(admin, 'SELECT IS_USED_LOCK(?) AS owner', [FILLER_LOCK]);
  return lock?.owner !== null && lock?.owner !== undefined;
}

function isMissingPool(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'ER_NO_SUCH_TABLE' || code === 'ER_BAD_DB_ERROR';
}

async function rows(connection: Connection, sql: string, params: unknown[] = []): Promise<RowDataPacket[]> {
  const [result] = await connection.query<RowDataPacket[]>(sql, params);
  return result;
}

/** The filler: keeps SPARES_WANTED clones of `template` and drops what is handed back, until idle. */
async function fill(serverUrl: string, template: string): Promise<void> {
  const admin = await mysql.createConnection({ uri: serverUrl, multipleStatements: true });
  try {
    const [lock] = await rows(admin, 'SELECT GET_LOCK(?, 0) AS taken', [FILLER_LOCK]);
    if (Number(lock?.taken) !== 1) return;
    await admin.query(
      `CREATE DATABASE IF NOT EXISTS \`${POOL}\`;
       CREATE TABLE IF NOT EXISTS \`${POOL}\`.spares (name VARCHAR(64) PRIMARY KEY, template VARCHAR(64) NOT NULL,
         made TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3));
       CREATE TABLE IF NOT EXISTS \`${POOL}\`.doomed (name VARCHAR(64) PRIMARY KEY);`,
    );
    // Spares of an older template: their schema is not the migrations' any more.
    for (const stale of await rows(admin, `SELECT name FROM \`${POOL}\`.spares WHERE template <> ?`, [
      template,
    ])) {
      await admin.query(`INSERT IGNORE INTO \`${POOL}\`.doomed (name) VALUES (?)`, [stale.name]);
      await admin.query(`DELETE FROM \`${POOL}\`.spares WHERE name = ?`, [stale.name]);
    }
    let lastWork = Date.now();
    while (Date.now() - lastWork < IDLE_MS) {
      const [count] = await rows(admin, `SELECT COUNT(*) AS n FROM \`${POOL}\`.spares WHERE template = ?`, [
        template,
      ]);
      if (Number(count?.n) < SPARES_WANTED) {
        const name = `dam_e2e_spare_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
        await createDatabase(admin, name);
        await cloneInto(admin, template, name);
        await admin.query(`INSERT INTO \`${POOL}\`.spares (name, template) VALUES (?, ?)`, [name, template]);
        lastWork = Date.now();
        continue;
      }
      const [doomed] = await rows(admin, `SELECT name FROM \`${POOL}\`.doomed LIMIT 1`);
      if (doomed !== undefined) {
        await admin.query(`DROP DATABASE IF EXISTS \`${String(doomed.name)}\``);
        await admin.query(`DELETE FROM \`${POOL}\`.doomed WHERE name = ?`, [doomed.name]);
        lastWork = Date.now();
        continue;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await admin.end();
  }
}

// Run by Node as an ES module, where `__filename` does not exist (ensureFiller runs under Jest, where it does).
if (process.argv[1]?.endsWith('mysql-spares.ts') === true && process.argv.length === 4) {
  fill(process.argv[2], process.argv[3]).catch(() => process.exit(1));
}
