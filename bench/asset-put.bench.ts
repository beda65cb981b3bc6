/**
 * Asset PUT throughput (issue 35: what keeping the word tallies costs writes): on a fresh MySQL/MariaDB
 * database (DAM_TEST_MYSQL_URL), or SQLite with `--sqlite`, 200 assets with a title, description and
 * keywords of seed words, each in one of 4 categories, then `--puts N` (400) sequential
 * `PUT /rest/assets/{id}` over HTTP, each changing the title and keywords (new words, some kept), every
 * fourth the levels and every eighth (another) the category. Prints PUTs per second and the p50/p95 of one
 * PUT. Run it from two checkouts in turn to compare them side by side (the same file in both: copy it).
 *
 *   npx ts-node -r tsconfig-paths/register --transpile-only bench/asset-put.bench.ts [--sqlite] [--puts N]
 */
import * as fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { AppConfig } from '@dam/core';
import { DataSource } from 'typeorm';
import { createApp } from '../apps/api/src/create-app';
import { random, WORDS } from './asset-search-seed';
import { fmt, percentile, withMysqlBenchApp } from './mysql-bench-app';

const arg = (name: string, fallback: number): number =>
  process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback;
const PUTS = arg('--puts', 400);
const ASSETS = 200;

/** The categories attribute (system attribute 10 on a fresh database). */
const CATEGORIES_ATTRIBUTE = '10';

async function run(base: string, token: string, dataSource: DataSource): Promise<void> {
  const call = async (method: string, url: string, body?: unknown): Promise<{ id: number }> => {
    const response = await fetch(base + url, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
    return JSON.parse(text) as { id: number };
  };
  const next = random(11);
  const words = (n: number) =>
    Array.from({ length: n }, () => WORDS[Math.floor(next() ** 3 * 200)]).join(' ');
  const levels: number[] = [];
  for (let i = 0; i < 4; i++) levels.push((await call('POST', '/rest/access-levels', { name: `L${i}` })).id);
  // Categories have no POST in the API: rows, as the test fixtures insert them.
  const categories: number[] = [];
  for (let i = 0; i < 4; i++) {
    const name = `bench-category-${i}`;
    const now = new Date().toISOString().slice(0, 19).replace('T', ' ');
    await dataSource.query(
      'INSERT INTO categories (name, description, parent_id, created_at, updated_at) VALUES (?, NULL, NULL, ?, ?)',
      [name, now, now],
    );
    const [row] = (await dataSource.query('SELECT id FROM categories WHERE name = ?', [name])) as Array<{
      id: unknown;
    }>;
    categories.push(Number(row.id));
  }
  const ids: number[] = [];
  for (let i = 0; i < ASSETS; i++) {
    const { id } = await call('POST', '/rest/assets', {
      accessLevels: [{ id: levels[i % 4] }],
      submit: true,
    });
    await call('PUT', `/rest/assets/${id}`, {
      attributes: [
        { id: '1', value: words(3) },
        { id: '2', value: words(4) },
        { id: '3', value: words(2) },
        { id: CATEGORIES_ATTRIBUTE, value: String(categories[i % 4]) },
      ],
    });
    ids.push(id);
  }
  const times: number[] = [];
  const started = performance.now();
  for (let i = 0; i < PUTS; i++) {
    const body: Record<string, unknown> = {
      attributes: [
        { id: '1', value: words(3) },
        { id: '3', value: words(2) },
      ],
    };
    if (i % 4 === 0) body.accessLevels = [{ id: levels[(i / 4) % 4] }];
    if (i % 8 === 2) {
      (body.attributes as unknown[]).push({
        id: CATEGORIES_ATTRIBUTE,
        value: String(categories[(i >> 3) % 4]),
      });
    }
    const at = performance.now();
    await call('PUT', `/rest/assets/${ids[i % ASSETS]}`, body);
    times.push(performance.now() - at);
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `PUT/s ${(PUTS / seconds).toFixed(1)} p50 ${fmt(percentile(times, 50))} p95 ${fmt(percentile(times, 95))} ` +
      `(${PUTS} PUTs, load ${os.loadavg()[0].toFixed(1)})`,
  );
}

async function main(): Promise<void> {
  if (!process.argv.includes('--sqlite')) {
    await withMysqlBenchApp(false, ({ app, base, token }) => run(base, token, app.get(DataSource)));
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-put-'));
  const secret = randomBytes(18).toString('base64url');
  const app = await createApp(
    AppConfig.fromEnv({
      DAM_DATA_DIR: dir,
      DAM_CLIENT_ID: 'bench-client',
      DAM_CLIENT_SECRET: secret,
      DAM_LOG_REQUESTS: 'false',
      DAM_JOBS_ENABLED: 'false',
    }),
    ['error', 'warn'],
  );
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
    await run(base, ((await response.json()) as { access_token: string }).access_token, app.get(DataSource));
  } finally {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
