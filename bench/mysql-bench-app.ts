/**
 * What the MySQL benchmarks share: a fresh database `dam_bench_<time>` on DAM_TEST_MYSQL_URL, the API
 * booted on it (migrations run at boot) and listening on a random port, a client_credentials token of
 * the application user, and the clean-up (the database is dropped unless `keep`).
 */
import { INestApplication } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { createConnection } from 'mysql2/promise';
import { AppConfig } from '@dam/core';
import { createApp } from '../apps/api/src/create-app';

export const SERVER_URL = (
  process.env.DAM_TEST_MYSQL_URL ?? 'mysql://dam_test:dam_test@127.0.0.1:3306'
).replace(/\/+$/, '');

export interface MysqlBenchApp {
  app: INestApplication;
  /** http://127.0.0.1:<port> */
  base: string;
  /** Bearer token of the application user. */
  token: string;
  database: string;
}

/**
 * `reuse` names an existing database (kept by an earlier `keep` run) to boot on instead of a fresh one;
 * it is never dropped.
 */
export async function withMysqlBenchApp(
  keep: boolean,
  run: (bench: MysqlBenchApp) => Promise<void>,
  reuse?: string,
): Promise<void> {
  const database = reuse ?? `dam_bench_${Date.now().toString(36)}`;
  const admin = await createConnection(SERVER_URL);
  if (reuse === undefined)
    await admin.query(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-bench-'));
  const clientSecret = randomBytes(18).toString('base64url');
  let app: INestApplication | undefined;
  try {
    const config = AppConfig.fromEnv({
      DATABASE_URL: `${SERVER_URL}/${database}`,
      DAM_DATA_DIR: dataDir,
      DAM_CLIENT_ID: 'bench-client',
      DAM_CLIENT_SECRET: clientSecret,
      DAM_LOG_REQUESTS: 'false',
      DAM_JOBS_ENABLED: 'false',
    });
    app = await createApp(config, ['error', 'warn']);
    await app.listen(0, '127.0.0.1');
    const base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    await run({ app, base, token: await clientToken(base, clientSecret), database });
  } finally {
    await app?.close();
    if (!keep && reuse === undefined) await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function clientToken(base: string, secret: string): Promise<string> {
  const response = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: 'bench-client',
      client_secret: secret,
    }),
  });
  if (!response.ok) throw new Error(`token: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export function fmt(ms: number): string {
  return `${ms.toFixed(1)} ms`;
}
