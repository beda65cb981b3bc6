import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { runCli } from '../apps/cli/src/cli';
import { createTestDatabase, MATRIX, TestDatabase } from './helpers/databases';
import { TestApp } from './helpers/test-app';
import { FROM_SOURCES } from './helpers/from-sources';

jest.setTimeout(120_000);

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

const ROOT = path.resolve(__dirname, '..');

/** The CLI as a separate process from its sources, with `input` on its standard input. */
function spawnCli(args: string[], env: Record<string, string>, input = ''): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [...FROM_SOURCES, 'apps/cli/src/main.ts', ...args],
      // A guard, not a bound: the CLI starts in seconds, in a minute or more on an overloaded machine.
      { cwd: ROOT, env: { ...process.env, ...env }, timeout: 110_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
    child.stdin?.end(input);
  });
}

describe('CLI: users, tokens and clients', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let t: TestApp;

  /** One command line in this process; `stdin` is what a pipe would give it. */
  async function cli(argv: string[], stdin?: string): Promise<CliResult> {
    const stdout: string[] = [];
    const stderr: string[] = [];
    const code = await runCli(argv, {
      env,
      stdin: stdin === undefined ? undefined : Readable.from([Buffer.from(stdin)]),
      stdout: (line) => stdout.push(line),
      stderr: (line) => stderr.push(line),
    });
    return { code, stdout: stdout.join('\n'), stderr: stderr.join('\n') };
  }

  const login = (username: string, password: string) =>
    t.http.post('/oauth/token').type('form').send({
      grant_type: 'password',
      username,
      password,
      client_id: t.clientId,
      client_secret: t.clientSecret,
    });
  const whoAmI = (token: string) => t.http.get('/rest/authenticated-user').auth(token, { type: 'bearer' });
  /**
   * The CLI is another process: the API follows its revocations within 2 s (the token cache reads the
   * shared generation counter at most once a second), so this asks until then, with 3x slack for a
   * loaded machine.
   */
  const revokedSoon = async (token: string): Promise<void> => {
    const deadline = Date.now() + 3 * 2_000;
    let status = (await whoAmI(token)).status;
    while (status !== 401 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await whoAmI(token)).status;
    }
    expect(status).toBe(401);
  };

  beforeAll(async () => {
    database = await createTestDatabase(MATRIX, { migrated: true });
    t = await TestApp.start({ database });
    env = {
      DAM_DATA_DIR: database.dataDir,
      DAM_DATABASE_CONNECT_RETRIES: '0',
      DAM_CLIENT_ID: t.clientId,
      DAM_CLIENT_SECRET: t.clientSecret,
    };
    if (database.databaseUrl !== undefined) env.DATABASE_URL = database.databaseUrl;
  });

  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  it('create-user --password-stdin takes the password from standard input, --json prints the user', async () => {
    const created = await cli(['create-user', 'carol', '--password-stdin', '--json'], 'carol-password-1\n');
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const user = JSON.parse(created.stdout) as { id: number; username: string };
    expect(user).toEqual({ id: expect.any(Number), username: 'carol' });
    await login('carol', 'carol-password-1').expect(200);
    await login('carol', 'carol-password-1\n').expect(400);
  });

  it('refuses a short password from stdin, and --password with --password-stdin (exit 2)', async () => {
    expect((await cli(['create-user', 'dave', '--password-stdin'], 'short')).code).toBe(2);
    expect(
      (await cli(['create-user', 'dave', '--password', 'long-enough-1', '--password-stdin'], 'x')).code,
    ).toBe(2);
    expect((await cli(['users:list', '--json'])).stdout).not.toContain('"dave"');
  });

  it('users:list shows every user, as text and as JSON', async () => {
    await cli(['create-user', 'erin', '--admin']);
    const listed = await cli(['users:list', '--json']);
    expect(listed.code).toBe(0);
    const users = JSON.parse(listed.stdout) as Array<{ username: string; isAdmin: boolean }>;
    expect(users).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ username: 'application', isAdmin: true }),
        expect.objectContaining({ username: 'carol', isAdmin: false }),
        expect.objectContaining({ username: 'erin', isAdmin: true }),
      ]),
    );
    const text = await cli(['users:list']);
    expect(text.stdout.split('\n')).toEqual(
      expect.arrayContaining([expect.stringMatching(/^\d+\terin\tadmin$/)]),
    );
  });

  it('users:reset-password sets a new password from stdin and ends the old sessions', async () => {
    await cli(['create-user', 'frank', '--password-stdin'], 'frank-password-1');
    const token = (await login('frank', 'frank-password-1').expect(200)).body.access_token as string;
    const reset = await cli(['users:reset-password', 'frank', '--password-stdin'], 'frank-password-2\n');
    expect(reset).toMatchObject({
      code: 0,
      stdout: 'password of frank reset; their sessions ended',
      stderr: '',
    });
    await login('frank', 'frank-password-1').expect(400);
    await revokedSoon(token);
    const fresh = (await login('frank', 'frank-password-2').expect(200)).body.access_token as string;
    // --revoke-tokens, from before every password change ended the sessions, is still accepted.
    const revoking = await cli(
      ['users:reset-password', 'frank', '--password-stdin', '--revoke-tokens', '--json'],
      'frank-password-3',
    );
    expect(JSON.parse(revoking.stdout)).toMatchObject({ username: 'frank' });
    await revokedSoon(fresh);
  });

  it('users:reset-password needs the password on stdin when there is no terminal (exit 2); unknown user exit 1', async () => {
    const noInput = await cli(['users:reset-password', 'frank']);
    expect(noInput.code).toBe(2);
    expect(noInput.stderr).toContain('--password-stdin');
    const unknown = await cli(['users:reset-password', 'nobody', '--password-stdin'], 'long-enough-pw');
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr).toContain('nobody');
  });

  it('tokens:revoke --user ends every token of the user', async () => {
    await cli(['create-user', 'gina', '--password-stdin'], 'gina-password-1');
    const first = (await login('gina', 'gina-password-1').expect(200)).body.access_token as string;
    const second = (await cli(['issue-token', '--user', 'gina'])).stdout;
    const other = (await cli(['issue-token', '--user', 'carol'])).stdout;
    const revoked = await cli(['tokens:revoke', '--user', 'gina', '--json']);
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout)).toEqual({ revokedTokens: 3 });
    await revokedSoon(first);
    await revokedSoon(second);
    await whoAmI(other).expect(200);
  });

  it('clients:create, clients:rotate-secret and tokens:revoke --client', async () => {
    const created = await cli(['clients:create', '--user', 'carol', '--name', 'ci', '--json']);
    expect(created.code).toBe(0);
    const { client_id: id, client_secret: secret } = JSON.parse(created.stdout) as Record<string, string>;
    const grant = (clientSecret: string) =>
      t.http
        .post('/oauth/token')
        .type('form')
        .send({ grant_type: 'client_credentials', client_id: id, client_secret: clientSecret });
    const token = (await grant(secret).expect(200)).body.access_token as string;
    expect((await whoAmI(token).expect(200)).body.username).toBe('carol');

    const rotated = await cli(['clients:rotate-secret', id]);
    expect(rotated.code).toBe(0);
    const [idLine, secretLine] = rotated.stdout.split('\n');
    expect(idLine).toBe(`client_id=${id}`);
    const newSecret = secretLine.replace(/^client_secret=/, '');
    expect(newSecret).not.toBe(secret);
    await grant(secret).expect(401);
    const fresh = (await grant(newSecret).expect(200)).body.access_token as string;

    expect((await cli(['tokens:revoke', '--client', id])).stdout).toBe('2 tokens revoked');
    await revokedSoon(token);
    await revokedSoon(fresh);
    expect((await cli(['tokens:revoke', '--client', 'no-such-client'])).code).toBe(1);
  });

  it.each([
    [['tokens:revoke']],
    [['tokens:revoke', '--user', 'a', '--client', 'b']],
    [['clients:rotate-secret']],
  ])('%j is a usage error (exit 2)', async (argv) => {
    const result = await cli(argv);
    expect(result).toMatchObject({ code: 2, stdout: '' });
  });

  it('help lists the new commands', async () => {
    const help = (await cli(['help'])).stdout;
    for (const command of [
      'users:list',
      'users:reset-password',
      'users:unlock',
      'tokens:revoke',
      'clients:create',
      'clients:rotate-secret',
    ]) {
      expect(help).toContain(command);
    }
  });

  it('an unreachable database is one line on stderr and exit 3, in process and as a process', async () => {
    const down = {
      ...env,
      DATABASE_URL: 'mysql://dam:secret-pw@127.0.0.1:1/dam',
      DAM_DATABASE_CONNECT_RETRIES: '0',
    };
    const saved = env;
    env = down;
    try {
      const result = await cli(['users:list']);
      expect(result.code).toBe(3);
      expect(result.stdout).toBe('');
      expect(result.stderr.split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(/^the database is unreachable \(mysql:\/\/127\.0\.0\.1:1\/dam\): /);
      expect(result.stderr).not.toContain('secret-pw');
    } finally {
      env = saved;
    }
    const spawned = await spawnCli(['users:list'], down);
    expect(spawned.code).toBe(3);
    expect(spawned.stdout).toBe('');
    expect(spawned.stderr.trim().split('\n')).toHaveLength(1);
    expect(spawned.stderr).not.toMatch(/\n\s+at /);
  });

  it('the `dam` bin is the compiled CLI entry point, runnable by itself', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
    };
    expect(pkg.bin.dam).toBe('dist/apps/cli/src/main.js');
    const source = fs.readFileSync(path.join(ROOT, 'apps/cli/src/main.ts'), 'utf8');
    expect(source.startsWith('#!/usr/bin/env node\n')).toBe(true);
  });
});
