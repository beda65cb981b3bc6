/**
 * Issue 32's number: a GET of an asset with a (verified, kept) OIDC JWT against the same GET with an
 * opaque token of the same user, side by side in one run (autocannon, alternating which goes first).
 *
 *   npm run build && npx ts-node -r tsconfig-paths/register --transpile-only bench/oidc-token.bench.ts
 *
 * The service runs from the build in a child process on the DAM_TEST_MATRIX database (SQLite by default),
 * with DAM_OIDC_ISSUER pointing at an oidc-provider on loopback (test/helpers/oidc-issuer.ts). The user
 * `bench` has a password (opaque token by the password grant) and is an admin by the token's groups.
 * Settings: BENCH_ROUNDS (5), BENCH_SECONDS (5), BENCH_CONNECTIONS (32). Writes bench/results/oidc-token.md.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { createTestDatabase, MATRIX } from '../test/helpers/databases';
import { startObjectStore } from '../test/helpers/object-store';
import { AUDIENCE, OidcIssuer } from '../test/helpers/oidc-issuer';
import { ServiceProcess } from '../test/helpers/service-process';
import { load, LoadFigures } from './load';
import { median } from './overview-figures';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);

async function call(base: string, token: string, method: string, url: string, body?: object) {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return response;
}

async function main(): Promise<void> {
  const issuer = await OidcIssuer.start();
  const database = await createTestDatabase();
  const store = MATRIX === 'mysql' ? await startObjectStore() : undefined;
  const clientSecret = randomBytes(18).toString('base64url');
  const env: Record<string, string> = {
    DAM_DATA_DIR: database.dataDir,
    DAM_CLIENT_ID: 'bench',
    DAM_CLIENT_SECRET: clientSecret,
    DAM_LOG_REQUESTS: 'false',
    DAM_JOBS_ENABLED: 'false',
    DAM_OIDC_ISSUER: issuer.issuer,
    DAM_OIDC_AUDIENCE: AUDIENCE,
    DAM_OIDC_ADMIN_GROUPS: 'dam-admins',
    ...store?.env,
  };
  if (database.databaseUrl !== undefined) env.DATABASE_URL = database.databaseUrl;
  const service = new ServiceProcess(env, true);
  try {
    await service.start();
    const base = service.baseUrl;
    const application = await service.token('bench', clientSecret);
    const level = (await (
      await call(base, application, 'POST', '/rest/access-levels', { name: 'L' })
    ).json()) as {
      id: number;
    };
    const asset = (await (
      await call(base, application, 'POST', '/rest/assets', { accessLevels: [{ id: level.id }] })
    ).json()) as { url: string };
    const password = `pw-${randomBytes(8).toString('hex')}`;
    const oidc = await issuer.issue({ preferred_username: 'bench', groups: ['dam-admins'] });
    const me = (await (await call(base, oidc, 'GET', '/rest/authenticated-user')).json()) as { id: number };
    await call(base, application, 'PUT', `/rest/users/${me.id}`, { password });
    const grant = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'password',
        username: 'bench',
        password,
        client_id: 'bench',
        client_secret: clientSecret,
      }),
    });
    const opaque = ((await grant.json()) as { access_token: string }).access_token;
    const url = asset.url.replace(/^https?:\/\/[^/]+/, base);
    const tokens = { opaque, oidc };
    for (const token of Object.values(tokens))
      await load(url, { connections: CONNECTIONS, seconds: 2, token });
    const rounds: Array<Record<'opaque' | 'oidc', LoadFigures>> = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const order = round % 2 === 0 ? (['opaque', 'oidc'] as const) : (['oidc', 'opaque'] as const);
      const figures = {} as Record<'opaque' | 'oidc', LoadFigures>;
      for (const kind of order)
        figures[kind] = await load(url, { connections: CONNECTIONS, seconds: SECONDS, token: tokens[kind] });
      rounds.push(figures);
      console.log(
        `round ${round + 1}: opaque ${figures.opaque.requestsPerSecond.toFixed(0)} req/s, ` +
          `oidc ${figures.oidc.requestsPerSecond.toFixed(0)} req/s`,
      );
    }
    const ratio = median(rounds.map((r) => r.oidc.requestsPerSecond / r.opaque.requestsPerSecond));
    const report = [
      '# GET /rest/assets/{id}: OIDC JWT vs opaque token (issue 32)',
      '',
      `${new Date().toISOString()}, ${MATRIX}, ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(2)} at the end; ` +
        `${ROUNDS} rounds of ${SECONDS} s, ${CONNECTIONS} connections, alternating which goes first.`,
      '',
      '| token | req/s (median) | p50 ms | p99 ms |',
      '|---|---|---|---|',
      ...(['opaque', 'oidc'] as const).map(
        (kind) =>
          `| ${kind} | ${median(rounds.map((r) => r[kind].requestsPerSecond)).toFixed(0)} | ` +
          `${median(rounds.map((r) => r[kind].p50))} | ${median(rounds.map((r) => r[kind].p99))} |`,
      ),
      '',
      `oidc/opaque (median of the per-round ratios): **${ratio.toFixed(2)}** (target ≥ 0.9)`,
      '',
    ].join('\n');
    console.log(report);
    fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
    fs.writeFileSync(path.join(__dirname, 'results', 'oidc-token.md'), report);
  } finally {
    await service.kill();
    await store?.stop();
    await database.drop();
    await issuer.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
