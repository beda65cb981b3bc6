import { Readable } from 'node:stream';
import { runCli } from '../apps/cli/src/cli';
import {
  expectLocked,
  MAX_FAILURES,
  MAX_PER_ADDRESS,
  startThrottledApp,
  ThrottledApp,
} from './helpers/login-throttle';
import { TestApp, TestUser } from './helpers/test-app';

jest.setTimeout(300_000);

/**
 * Issue 36, "Lockout that an attacker cannot aim": failed password grants lock the pair (username,
 * address) first; the username is locked everywhere only once its failures come from
 * DAM_LOGIN_LOCK_ADDRESSES (3) addresses; `dam users:unlock` lifts it; the counter takes the username as
 * stored. X-Forwarded-For (DAM_TRUST_PROXY) makes this one process several clients.
 */
describe('login lockout', () => {
  let app: ThrottledApp;
  let t: TestApp;

  beforeAll(async () => {
    app = await startThrottledApp();
    t = app.t;
  });
  afterAll(() => app?.close());

  let addresses = 0;
  const newAddress = () => `203.0.113.${++addresses}`;

  const login = (username: string, password: string, address: string) =>
    t.http.post('/oauth/token').set('X-Forwarded-For', address).type('form').send({
      grant_type: 'password',
      username,
      password,
      client_id: t.clientId,
      client_secret: t.clientSecret,
    });

  async function fail(username: string, address: string, times: number): Promise<void> {
    for (let failure = 0; failure < times; failure++) await login(username, 'wrong', address).expect(400);
  }

  async function unlock(username: string): Promise<number> {
    const env: Record<string, string> = {
      DAM_DATA_DIR: app.database.dataDir,
      DAM_DATABASE_CONNECT_RETRIES: '0',
      DAM_CLIENT_ID: t.clientId,
      DAM_CLIENT_SECRET: t.clientSecret,
      ...(app.database.databaseUrl === undefined ? {} : { DATABASE_URL: app.database.databaseUrl }),
      ...(app.store === undefined ? {} : app.store.env),
    };
    return runCli(['users:unlock', username], {
      env,
      stdin: Readable.from([]),
      stdout: () => undefined,
      stderr: () => undefined,
    });
  }

  it(`${MAX_FAILURES} failures from one address lock that address for the username only`, async () => {
    const user = await t.createUser();
    const attacker = newAddress();
    await fail(user.username, attacker, MAX_FAILURES);
    expectLocked(await login(user.username, user.password, attacker));
    // The owner, elsewhere, is not locked out; the attacker's address still tries other usernames.
    await login(user.username, user.password, newAddress()).expect(200);
    await login(`nobody-${addresses}`, 'wrong', attacker).expect(400);
  });

  it('an admin is locked out by one address no more than anyone', async () => {
    const admin = await t.createUser({ admin: true });
    const attacker = newAddress();
    await fail(admin.username, attacker, MAX_FAILURES);
    expectLocked(await login(admin.username, 'wrong', attacker));
    expectLocked(await login(admin.username, admin.password, attacker));
    await login(admin.username, admin.password, newAddress()).expect(200);
  });

  it('the username is locked everywhere only once failures come from 3 addresses', async () => {
    const user = await t.createUser();
    await fail(user.username, newAddress(), MAX_FAILURES);
    await fail(user.username, newAddress(), MAX_FAILURES);
    // Two addresses, twice the failures: still not locked for a third.
    await login(user.username, user.password, newAddress()).expect(200);
    await fail(user.username, newAddress(), 1);
    expectLocked(await login(user.username, user.password, newAddress()));
    expectLocked(await login(user.username, 'wrong', newAddress()));
  });

  it('dam users:unlock lifts the locks of a username (everywhere and per address)', async () => {
    const user = await t.createUser();
    const first = newAddress();
    await fail(user.username, first, MAX_FAILURES);
    await fail(user.username, newAddress(), 1);
    await fail(user.username, newAddress(), 1);
    expectLocked(await login(user.username, user.password, newAddress()));
    expectLocked(await login(user.username, user.password, first));
    expect(await unlock(user.username)).toBe(0);
    await login(user.username, user.password, newAddress()).expect(200);
    await login(user.username, user.password, first).expect(200);
    expect(await unlock('no-such-user')).toBe(1);
  });

  it(`${MAX_PER_ADDRESS} failures from one address, any usernames, lock that address`, async () => {
    const user = await t.createUser();
    const sprayer = newAddress();
    for (let failure = 0; failure < MAX_PER_ADDRESS; failure++) {
      await login(`sprayed-${failure}`, 'wrong', sprayer).expect(400);
    }
    expectLocked(await login(user.username, user.password, sprayer));
    await login(user.username, user.password, newAddress()).expect(200);
  });

  it('counts failures under the username exactly as stored', async () => {
    const suffix = `${Date.now() % 100_000}`;
    const upper = await t.createUser({ username: `Bob${suffix}` });
    const created = await t.http
      .post('/rest/users')
      .query({ username: `bob${suffix}` })
      .auth(t.adminToken, { type: 'bearer' });
    const attempts = [newAddress(), newAddress(), newAddress()];
    if (created.status === 201) {
      // Usernames that differ in case are two users (SQLite): failures against one never lock the other.
      await t.http
        .put(new URL(created.headers.location as string).pathname)
        .auth(t.adminToken, { type: 'bearer' })
        .send({ password: 'lower-case-password' })
        .expect(200);
      for (const address of attempts) await fail(upper.username, address, 1);
      expectLocked(await login(upper.username, upper.password, newAddress()));
      await login(`bob${suffix}`, 'lower-case-password', newAddress()).expect(200);
    } else {
      // MariaDB compares usernames without case: `bob…` names the stored `Bob…`, and counts as it.
      expect(created.status).toBe(409);
      await fail(`bob${suffix}`, attempts[0], 1);
      await fail(`BOB${suffix}`, attempts[1], 1);
      await fail(upper.username, attempts[2], 1);
      expectLocked(await login(upper.username, upper.password, newAddress()));
    }
  });
});

/**
 * Locks are per (username, address) with the defaults too (10 failures, 3 addresses), and a locked answer
 * comes the production second late (the test apps' default is 50 ms).
 */
describe('login lockout: defaults', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start({ env: { DAM_TRUST_PROXY: 'true', DAM_LOGIN_LOCKED_DELAY_MS: '1000' } });
  });
  afterAll(() => t?.close());

  it('are documented in the configuration', () => {
    expect(t.config.loginMaxFailures).toBe(10);
    expect(t.config.loginLockAddresses).toBe(3);
    expect(t.config.loginMaxFailuresPerAddress).toBe(50);
  });

  it('ten wrong passwords from one address leave the account open from every other address', async () => {
    const user: TestUser = await t.createUser();
    const login = (password: string, address: string) =>
      t.http.post('/oauth/token').set('X-Forwarded-For', address).type('form').send({
        grant_type: 'password',
        username: user.username,
        password,
        client_id: t.clientId,
        client_secret: t.clientSecret,
      });
    for (let failure = 0; failure < 10; failure++) await login('wrong', '192.0.2.1').expect(400);
    const asked = Date.now();
    expectLocked(await login(user.password, '192.0.2.1'));
    // 990: Date.now() and the timer each round to the millisecond.
    expect(Date.now() - asked).toBeGreaterThanOrEqual(990);
    await login(user.password, '192.0.2.2').expect(200);
  });
});
