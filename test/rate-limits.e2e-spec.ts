import type { Response } from 'supertest';
import { createTestDatabase, MATRIX, TestDatabase } from './helpers/databases';
import { startObjectStore, TestObjectStore } from './helpers/object-store';
import { TestApp, TestUser } from './helpers/test-app';

jest.setTimeout(300_000);

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A 429 as the service answers it: plain text, one line, and `Retry-After` in whole seconds. */
function expectTooMany(response: Response, maxRetryAfter: number): void {
  expect(response.status).toBe(429);
  expect(response.headers['content-type']).toMatch(/^text\/plain/);
  expect(response.text).not.toContain('\n');
  const retryAfter = Number(response.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxRetryAfter);
}

/** A password grant for `username` on `t`, with `t`'s own client. */
function passwordGrant(t: TestApp, username: string, password: string) {
  return t.http.post('/oauth/token').type('form').send({
    grant_type: 'password',
    username,
    password,
    client_id: t.clientId,
    client_secret: t.clientSecret,
  });
}

/**
 * Issue 16: failed password grants per username and per address (DAM_LOGIN_MAX_FAILURES within
 * DAM_LOGIN_WINDOW_SECONDS), and the optional per-token limit (DAM_RATE_LIMIT_PER_MINUTE), with counters
 * two instances on one database share.
 */
describe('rate limits', () => {
  const MAX_FAILURES = 3;
  // Long enough for a test's logins (each hashes twice, up to a second on a busy machine) to fit in one;
  // no test here waits for it to pass ('rate limits: the window passes' does, with a short one).
  const WINDOW_SECONDS = 40;
  let database: TestDatabase;
  let store: TestObjectStore | undefined;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase(MATRIX, { migrated: true });
    store = MATRIX === 'mysql' ? await startObjectStore() : undefined;
    const env = {
      DAM_LOGIN_MAX_FAILURES: String(MAX_FAILURES),
      DAM_LOGIN_WINDOW_SECONDS: String(WINDOW_SECONDS),
      DAM_LOGIN_MAX_FAILURES_PER_ADDRESS: String(MAX_FAILURES),
      // X-Forwarded-For names the client address, so one test process can be several clients.
      DAM_TRUST_PROXY: 'true',
    };
    a = await TestApp.start({ database, objectStore: store, env });
    b = await TestApp.start({ database, objectStore: store, env });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await store?.stop();
    await database?.drop();
  });

  let addresses = 0;
  /** A client address no other test uses. */
  const newAddress = () => `198.51.100.${++addresses}`;

  /** A password grant on `t`, as a client at `address`. B booted last: its client secret is the one in force. */
  function login(t: TestApp, username: string, password: string, address: string) {
    return t.http.post('/oauth/token').set('X-Forwarded-For', address).type('form').send({
      grant_type: 'password',
      username,
      password,
      client_id: b.clientId,
      client_secret: b.clientSecret,
    });
  }

  describe('password grants', () => {
    let user: TestUser;
    beforeAll(async () => {
      user = await b.createUser();
    });

    it(`after ${MAX_FAILURES} failures for one username (over both instances and from 3 addresses), 429 even for the right password`, async () => {
      for (let failure = 1; failure <= MAX_FAILURES; failure++) {
        const response = await login(failure % 2 === 0 ? a : b, user.username, 'wrong', newAddress());
        expect(response.status).toBe(400);
        expect(response.body.error).toBe('invalid_grant');
      }
      const refused = await login(a, user.username, user.password, newAddress());
      expectTooMany(refused, WINDOW_SECONDS);
      for (const t of [a, b]) {
        expectTooMany(await login(t, user.username, user.password, newAddress()), WINDOW_SECONDS);
        expectTooMany(await login(t, user.username, 'wrong', newAddress()), WINDOW_SECONDS);
      }
      // Counted under the username as stored: on MariaDB, which finds the user whatever the case, the
      // upper-case spelling is the same account; on SQLite it names nobody (tests/lockout.e2e-spec.ts).
      const upper = await login(a, user.username.toUpperCase(), user.password, newAddress());
      if (MATRIX === 'mysql') expectTooMany(upper, WINDOW_SECONDS);
      else expect(upper.status).toBe(400);
      // Another user, and other grants, are not affected.
      const other = await b.createUser();
      await login(a, other.username, other.password, newAddress()).expect(200);
      await b.clientCredentialsToken();
    });

    it(`after ${MAX_FAILURES} failures from one address (any usernames), 429 for every username from there`, async () => {
      const address = newAddress();
      for (let failure = 1; failure <= MAX_FAILURES; failure++) {
        await login(failure % 2 === 0 ? a : b, `nobody-${failure}`, 'wrong', address).expect(400);
      }
      expectTooMany(await login(a, user.username, user.password, address), WINDOW_SECONDS);
      expectTooMany(await login(b, `nobody-else`, 'wrong', address), WINDOW_SECONDS);
      // A user whose own counter holds no failure still logs in from elsewhere.
      const elsewhere = await b.createUser();
      expectTooMany(await login(a, elsewhere.username, elsewhere.password, address), WINDOW_SECONDS);
      await login(b, elsewhere.username, elsewhere.password, newAddress()).expect(200);
    });

    it('neither successful nor refused attempts count as failures', async () => {
      const target = await b.createUser();
      for (let failure = 1; failure < MAX_FAILURES; failure++) {
        await login(a, target.username, 'wrong', newAddress()).expect(400);
      }
      // Were these counted, the limit would be passed after the first of them.
      for (let success = 0; success < 3; success++) {
        await login(success % 2 === 0 ? a : b, target.username, target.password, newAddress()).expect(200);
      }
      await login(a, target.username, 'wrong', newAddress()).expect(400);
      expectTooMany(await login(b, target.username, target.password, newAddress()), WINDOW_SECONDS);
      expectTooMany(await login(a, target.username, 'wrong', newAddress()), WINDOW_SECONDS);
    });

    it('counts a burst of parallel guesses exactly: no more than the limit are checked', async () => {
      const target = await b.createUser();
      const address = newAddress();
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          login(index % 2 === 0 ? a : b, target.username, `guess-${index}`, `${address}`),
        ),
      );
      const statuses = answers.map((response) => response.status).sort();
      expect(statuses.filter((status) => status === 400)).toHaveLength(MAX_FAILURES);
      expect(statuses.filter((status) => status === 429)).toHaveLength(12 - MAX_FAILURES);
    });

    it('lets a burst of right passwords through: attempts past the limit wait for those still being checked', async () => {
      // Each attempt counts before its password (and its client's secret) is checked. Twelve at once from one
      // address pass the limit of 3 in flight, though none fails: those behind wait their turn, not a 429.
      const target = await b.createUser();
      const address = newAddress();
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          login(index % 2 === 0 ? a : b, target.username, target.password, address),
        ),
      );
      expect(answers.map((response) => response.status)).toEqual(Array.from({ length: 12 }, () => 200));
      // Nothing was left counted: the address still takes its 3 failures before it locks.
      for (let failure = 1; failure <= MAX_FAILURES; failure++) {
        await login(a, `nobody-${failure}`, 'wrong', address).expect(400);
      }
      expectTooMany(await login(b, target.username, target.password, address), WINDOW_SECONDS);
    });
  });
});

/** The end of the window, on its own instance with a short one, so that the wait stays short. */
describe('rate limits: the window passes', () => {
  const MAX_FAILURES = 2;
  // Three logins, up to a second each on a busy machine (each hashes), must fit in it: 5x slack.
  const WINDOW_SECONDS = 15;
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start({
      env: { DAM_LOGIN_MAX_FAILURES: String(MAX_FAILURES), DAM_LOGIN_WINDOW_SECONDS: String(WINDOW_SECONDS) },
    });
  });
  afterAll(() => t?.close());

  it('refuses the right password until Retry-After has passed, counted from the first failure; then it works', async () => {
    const user = await t.createUser();
    const login = (password: string) => passwordGrant(t, user.username, password);
    await login('wrong').expect(400);
    // The window started with that first failure, before its answer arrived.
    const windowStartedBy = Date.now();
    for (let failure = 2; failure <= MAX_FAILURES; failure++) await login('wrong').expect(400);
    expectTooMany(await login(user.password), WINDOW_SECONDS);
    await sleep(Math.max(0, windowStartedBy + WINDOW_SECONDS * 1000 + 1000 - Date.now()));
    const after = await login(user.password).expect(200);
    expect(after.body.access_token).toEqual(expect.any(String));
  });
});

/** Two instances on one database, with DAM_RATE_LIMIT_PER_MINUTE=5. */
describe('rate limits: per access token', () => {
  let database: TestDatabase;
  let store: TestObjectStore | undefined;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase(MATRIX, { migrated: true });
    store = MATRIX === 'mysql' ? await startObjectStore() : undefined;
    const env = { DAM_RATE_LIMIT_PER_MINUTE: '5' };
    a = await TestApp.start({ database, objectStore: store, env });
    b = await TestApp.start({ database, objectStore: store, env });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await store?.stop();
    await database?.drop();
  });

  it('answers 429 with Retry-After past 5 requests a minute with one token, on either instance; other tokens go on', async () => {
    // Each user costs B's admin token 2 requests.
    const first = await b.createUser();
    const second = await b.createUser();
    const get = (t: TestApp, token: string) =>
      t.http.get('/rest/authenticated-user').auth(token, { type: 'bearer' });
    for (let request = 1; request <= 5; request++) {
      const response = await get(request % 2 === 0 ? a : b, first.token).expect(200);
      expect(response.headers['x-ratelimit-limit']).toBe('5');
      expect(response.headers['x-ratelimit-remaining']).toBe(String(5 - request));
    }
    expectTooMany(await get(a, first.token), 60);
    expectTooMany(await get(b, first.token), 60);
    await get(b, second.token).expect(200);
    // Requests without a token are not counted.
    for (let request = 0; request < 6; request++) await a.http.get('/rest/authenticated-user').expect(401);
  });
});

describe('rate limits: defaults', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t?.close());

  it('have no per-token limit unless DAM_RATE_LIMIT_PER_MINUTE is set', async () => {
    const user = await t.createUser();
    for (let request = 0; request < 30; request++) {
      const response = await t.http
        .get('/rest/authenticated-user')
        .auth(user.token, { type: 'bearer' })
        .expect(200);
      expect(response.headers['x-ratelimit-limit']).toBeUndefined();
    }
    expect(t.config.loginMaxFailures).toBe(10);
    expect(t.config.loginWindowSeconds).toBe(900);
  });

  it('refuse the 11th password grant for a username after 10 failures', async () => {
    const user = await t.createUser();
    const login = (password: string) => passwordGrant(t, user.username, password);
    for (let failure = 1; failure <= 10; failure++) await login('wrong').expect(400);
    expectTooMany(await login(user.password), 900);
  });
});
