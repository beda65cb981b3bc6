import { hashToken } from '@dam/access';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { runCli } from '../apps/cli/src/cli';
import { MIGRATIONS } from '@dam/migrations';
import { createTestDatabase, TestDatabase } from './helpers/databases';
import { TestApp } from './helpers/test-app';
import { FROM_SOURCES } from './helpers/from-sources';

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

const ROOT = path.resolve(__dirname, '..');
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The CLI as a separate process, from its sources (nothing is built for the tests). */
function spawnCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...FROM_SOURCES, 'apps/cli/src/main.ts', ...args],
      // A guard, not a bound: the CLI starts in seconds, in a minute or more on an overloaded machine.
      { cwd: ROOT, env: { ...process.env, ...env }, timeout: 110_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe('CLI', () => {
  let database: TestDatabase;
  let env: Record<string, string>;

  /** Runs one command line in this process, against the test database. */
  async function cli(...argv: string[]): Promise<CliResult> {
    const stdout: string[] = [];
    const stderr: string[] = [];
    const code = await runCli(argv, {
      env,
      stdout: (line) => stdout.push(line),
      stderr: (line) => stderr.push(line),
    });
    return { code, stdout: stdout.join('\n'), stderr: stderr.join('\n') };
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    env = {
      DAM_DATA_DIR: database.dataDir,
      DAM_DATABASE_CONNECT_RETRIES: '0',
      // The client id the TestApp below ensures too, so tokens issued here are revocable by it.
      DAM_CLIENT_ID: 'e2e-client',
      DAM_CLIENT_SECRET: randomBytes(12).toString('hex'),
    };
    if (database.databaseUrl !== undefined) env.DATABASE_URL = database.databaseUrl;
  });

  afterAll(async () => {
    await database?.drop();
  });

  describe('migrate', () => {
    it('applies every migration on a fresh database, then finds it up to date', async () => {
      const first = await cli('migrate');
      expect(first).toMatchObject({ code: 0, stderr: '' });
      expect(first.stdout.split('\n')).toEqual(
        MIGRATIONS.map((migration) => `applied ${new migration().name}`),
      );
      expect(await cli('migrate')).toEqual({ code: 0, stdout: 'database is up to date', stderr: '' });
    });
  });

  describe('usage', () => {
    it('help prints every command on stdout', async () => {
      for (const argv of [['help'], ['--help']]) {
        const result = await cli(...argv);
        expect(result.code).toBe(0);
        for (const command of ['migrate', 'create-user', 'create-client', 'issue-token', 'help']) {
          expect(result.stdout).toContain(command);
        }
      }
    });

    it.each([
      [[]],
      [['frobnicate']],
      [['migrate', 'now']],
      [['create-user']],
      [['create-user', 'a', 'b']],
      [['create-user', 'someone', '--bogus']],
      [['create-user', 'someone', '--password']],
      [['create-user', 'someone', '--password', 'short']],
      [['create-client', 'extra']],
      [['issue-token', '--ttl', 'abc']],
      [['issue-token', '--ttl', '0']],
      [['issue-token', '--user']],
      [['help', 'me']],
    ])('%j is a usage error: exit 2, usage on stderr, nothing on stdout', async (argv) => {
      const result = await cli(...argv);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/usage: npm run cli -- /);
    });

    it('a bad configuration exits 2 naming the variable', async () => {
      const saved = env;
      env = { ...env, PORT: 'abc' };
      try {
        const result = await cli('migrate');
        expect(result.code).toBe(2);
        expect(result.stderr).toContain('PORT');
      } finally {
        env = saved;
      }
    });
  });

  describe('commands that fail', () => {
    it('create-user with a taken username exits 1', async () => {
      expect((await cli('create-user', 'taken')).code).toBe(0);
      const again = await cli('create-user', 'taken');
      expect(again).toMatchObject({ code: 1, stdout: '' });
      expect(again.stderr).toContain('already exists');
    });

    it.each([
      ['create-client', '--user', 'nobody'],
      ['issue-token', '--user', 'nobody'],
    ])('%s for an unknown user exits 1', async (...argv) => {
      const result = await cli(...argv);
      expect(result).toMatchObject({ code: 1, stdout: '' });
      expect(result.stderr).toContain('nobody');
    });
  });

  describe('against the API on the same database', () => {
    const password = 'alice-password-1';
    let t: TestApp;
    let aliceId: number;
    let aliceToken: string;
    let applicationToken: string;
    let bobClient: { id: string; secret: string };

    beforeAll(async () => {
      const alice = await cli('create-user', 'alice', '--admin', '--password', password);
      expect(alice).toMatchObject({ code: 0, stdout: expect.stringMatching(/^\d+$/) });
      aliceId = Number(alice.stdout);
      expect((await cli('create-user', 'bob')).code).toBe(0);

      const client = await cli('create-client', '--user', 'bob', '--name', 'bob-ci');
      expect(client.code).toBe(0);
      const [idLine, secretLine] = client.stdout.split('\n');
      bobClient = {
        id: idLine.replace(/^client_id=/, ''),
        secret: secretLine.replace(/^client_secret=/, ''),
      };

      const token = await cli('issue-token', '--user', 'alice', '--ttl', '600');
      expect(token).toMatchObject({ code: 0, stdout: expect.stringMatching(TOKEN) });
      aliceToken = token.stdout;
      applicationToken = (await cli('issue-token')).stdout;

      t = await TestApp.start({ database });
      // From here on the CLI shares the API's environment, as it does in production.
      env = { ...env, DAM_CLIENT_ID: t.clientId, DAM_CLIENT_SECRET: t.clientSecret };
    });

    afterAll(async () => {
      await t?.close();
    });

    const whoAmI = (token: string) => t.http.get('/rest/authenticated-user').auth(token, { type: 'bearer' });

    it('create-user made the user, with --admin and --password', async () => {
      const user = await t.http
        .get(`/rest/users/${aliceId}`)
        .auth(t.adminToken, { type: 'bearer' })
        .expect(200);
      expect(user.body).toMatchObject({ id: aliceId, username: 'alice', isAdmin: true });
      await t.http
        .post('/oauth/token')
        .type('form')
        .send({
          grant_type: 'password',
          username: 'alice',
          password,
          client_id: t.clientId,
          client_secret: t.clientSecret,
        })
        .expect(200);
    });

    it('issue-token --user gives a token that acts as that user, for --ttl seconds', async () => {
      const me = await whoAmI(aliceToken).expect(200);
      expect(me.body).toMatchObject({ id: aliceId, username: 'alice' });
      const [row] = (await t.app
        .get(DataSource)
        .query('SELECT expires_at FROM oauth_tokens WHERE token_hash = ?', [
          hashToken(aliceToken),
        ])) as Array<{
        expires_at: string | Date;
      }>;
      const expiresAt =
        row.expires_at instanceof Date ? row.expires_at : new Date(`${row.expires_at.replace(' ', 'T')}Z`);
      const secondsLeft = (expiresAt.getTime() - Date.now()) / 1000;
      expect(secondsLeft).toBeGreaterThan(500);
      expect(secondsLeft).toBeLessThanOrEqual(601);
    });

    it('issue-token without --user acts as the application user', async () => {
      expect((await whoAmI(applicationToken).expect(200)).body.username).toBe('application');
    });

    it('create-client gives credentials whose client_credentials tokens act as that user', async () => {
      const response = await t.http
        .post('/oauth/token')
        .type('form')
        .send({ grant_type: 'client_credentials', client_id: bobClient.id, client_secret: bobClient.secret })
        .expect(200);
      expect((await whoAmI(response.body.access_token as string).expect(200)).body.username).toBe('bob');
    });

    it("the application's client can revoke a token the CLI issued", async () => {
      const token = (await cli('issue-token', '--user', 'bob')).stdout;
      await whoAmI(token).expect(200);
      await t.http
        .post('/oauth/revoke')
        .type('form')
        .send({ token, client_id: t.clientId, client_secret: t.clientSecret })
        .expect(200);
      await whoAmI(token).expect(401);
    });

    it('as a separate process: stdout carries only the result, exit codes tell the outcome', async () => {
      const [token, unknown] = await Promise.all([
        spawnCli(['issue-token', '--user', 'alice'], env),
        spawnCli(['frobnicate'], env),
      ]);
      expect(token.code).toBe(0);
      expect(token.stdout).toMatch(/^[A-Za-z0-9_-]{43}\n$/);
      await whoAmI(token.stdout.trim()).expect(200);
      expect(unknown.code).toBe(2);
      expect(unknown.stdout).toBe('');
      expect(unknown.stderr).toContain('usage:');
    });
  });
});
