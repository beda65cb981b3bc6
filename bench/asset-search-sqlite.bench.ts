/**
 * The asset-search benchmark on SQLite, beside MariaDB: copies a seeded MariaDB benchmark database
 * (`asset-search.bench.ts --database dam_bench_1m`) into a SQLite file migrated by the service, then boots
 * the API on it and measures the same request kinds (`measure` of asset-search.bench.ts).
 *
 *   npx ts-node -r tsconfig-paths/register --transpile-only bench/asset-search-sqlite.bench.ts \
 *     --from dam_bench_1m --dir /tmp/dam-bench-sqlite-1m [--runs N] [--out file]
 *
 * The copy is kept in `--dir` (dam.sqlite) and reused when present. Results: --out, by default
 * bench/results/asset-search-sqlite.md.
 */
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { createConnection } from 'mysql2';
import { DataSource } from 'typeorm';
import { AppConfig } from '@dam/core';
import { dataSourceOptions, runMigrations } from '@dam/database';
import { MIGRATIONS } from '@dam/migrations';
import { createApp } from '../apps/api/src/create-app';
import { measure, readSeeded } from './asset-search.bench';
import { SERVER_URL } from './mysql-bench-app';

const BATCH = 20_000;

async function main(): Promise<void> {
  const arg = (name: string): string | undefined => {
    const index = process.argv.indexOf(name);
    return index > 0 ? process.argv[index + 1] : undefined;
  };
  const from = arg('--from') ?? 'dam_bench_1m';
  const dir = arg('--dir') ?? '/tmp/dam-bench-sqlite-1m';
  const file = path.join(dir, 'dam.sqlite');
  if (!fs.existsSync(file)) await copy(from, dir, file);
  const secret = randomBytes(18).toString('base64url');
  const config = AppConfig.fromEnv({
    DAM_DATA_DIR: dir,
    DAM_CLIENT_ID: 'bench-client',
    DAM_CLIENT_SECRET: secret,
    DAM_LOG_REQUESTS: 'false',
    DAM_JOBS_ENABLED: 'false',
  });
  const app = await createApp(config, ['error', 'warn']);
  try {
    await app.listen(0, '127.0.0.1');
    const base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    const response = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: 'bench-client',
        client_secret: secret,
      }),
    });
    const token = ((await response.json()) as { access_token: string }).access_token;
    await measure(app, base, token, await readSeeded(app.get(DataSource)), undefined);
  } finally {
    await app.close();
  }
}

/** Migrates a fresh SQLite file, then copies every table the two share, row by row, from MariaDB. */
async function copy(from: string, dir: string, file: string): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  const config = AppConfig.fromEnv({ DAM_DATA_DIR: dir });
  const migrated = await new DataSource(dataSourceOptions(config, MIGRATIONS)).initialize();
  await runMigrations(migrated);
  await migrated.destroy();
  const db = new Database(file);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('foreign_keys = OFF');
  db.pragma('cache_size = -1000000');
  db.exec('CREATE TABLE IF NOT EXISTS bench_plan (plan TEXT NOT NULL)');
  const tables = (
    db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'migrations'",
      )
      .all() as Array<{ name: string }>
  ).map((row) => row.name);
  const source = createConnection(`${SERVER_URL}/${from}`);
  const [present] = await source.promise().query('SHOW TABLES');
  const inSource = new Set((present as Array<Record<string, string>>).map((row) => Object.values(row)[0]));
  for (const table of tables.filter((name) => inSource.has(name))) {
    const started = Date.now();
    const columns = (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map(
      (column) => column.name,
    );
    // Secondary indexes are built after the load (faster than keeping them up to date row by row).
    const indexes = db
      .prepare(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL",
      )
      .all(table) as Array<{ name: string; sql: string }>;
    for (const index of indexes) db.exec(`DROP INDEX "${index.name}"`);
    db.exec(`DELETE FROM "${table}"`);
    const insert = db.prepare(
      `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    );
    const write = db.transaction((rows: unknown[][]) => {
      for (const row of rows) insert.run(row);
    });
    let batch: unknown[][] = [];
    let count = 0;
    await new Promise<void>((resolve, reject) => {
      const stream = source
        .query(`SELECT ${columns.map((c) => `\`${c}\``).join(', ')} FROM \`${table}\``)
        .stream();
      stream.on('data', (row: Record<string, unknown>) => {
        batch.push(columns.map((column) => sqliteValue(row[column])));
        if (batch.length >= BATCH) {
          write(batch);
          count += batch.length;
          batch = [];
        }
      });
      stream.on('end', () => {
        write(batch);
        count += batch.length;
        resolve();
      });
      stream.on('error', reject);
    });
    for (const index of indexes) db.exec(index.sql);
    console.log(`${table}: ${count} rows in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  db.exec('ANALYZE');
  db.close();
  source.end();
}

/** Times as the service stores them on SQLite (UTC `YYYY-MM-DD HH:MM:SS.SSS`), booleans as 0/1. */
function sqliteValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString().replace('T', ' ').replace('Z', '');
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
