import { ApplicationUserBootstrap, OAuthClientsService } from '@dam/access';
import {
  expectLocked,
  MAX_FAILURES,
  MAX_PER_ADDRESS,
  startThrottledApp,
  ThrottledApp,
} from './helpers/login-throttle';
import { TestApp } from './helpers/test-app';

jest.setTimeout(300_000);

/**
 * Issue 36, "The token endpoint cannot be used to starve the service": failed client authentication is
 * throttled per client id and per address like failed passwords (locked attempts are refused before any
 * hash), and hashing runs behind a bounded gate that answers 503 when full.
 */
describe('token endpoint: failed client authentication is throttled', () => {
  let app: ThrottledApp;
  let t: TestApp;

  beforeAll(async () => {
    app = await startThrottledApp();
    t = app.t;
  });
  afterAll(() => app?.close());

  let addresses = 0;
  const newAddress = () => `198.18.0.${++addresses}`;

  const grant = (clientId: string, clientSecret: string, address: string, endpoint = '/oauth/token') =>
    t.http.post(endpoint).set('X-Forwarded-For', address).type('form').send({
      grant_type: 'client_credentials',
      token: 'any-token-at-all',
      client_id: clientId,
      client_secret: clientSecret,
    });

  /** A client of the application user, apart from the one every request here uses. */
  async function newClient(): Promise<{ clientId: string; clientSecret: string }> {
    const application = await t.app.get(ApplicationUserBootstrap).ensureApplicationUser();
    const { client, secret } = await t.app.get(OAuthClientsService).create(application.id, 'throttled');
    return { clientId: client.clientId, clientSecret: secret };
  }

  it(`${MAX_FAILURES} wrong secrets from one address lock that client there, not elsewhere`, async () => {
    const client = await newClient();
    const attacker = newAddress();
    for (let failure = 0; failure < MAX_FAILURES; failure++) {
      const refused = await grant(client.clientId, 'wrong-secret', attacker).expect(401);
      expect(refused.body.error).toBe('invalid_client');
    }
    expectLocked(await grant(client.clientId, client.clientSecret, attacker));
    expectLocked(await grant(client.clientId, 'wrong-secret', attacker));
    await grant(client.clientId, client.clientSecret, newAddress()).expect(200);
  });

  it('wrong secrets from 3 addresses lock the client id everywhere', async () => {
    const client = await newClient();
    for (let failure = 0; failure < MAX_FAILURES; failure++) {
      await grant(client.clientId, 'wrong-secret', newAddress()).expect(401);
    }
    expectLocked(await grant(client.clientId, client.clientSecret, newAddress()));
    // Other clients go on.
    await grant(t.clientId, t.clientSecret, newAddress()).expect(200);
  });

  it(`unknown client ids count too: ${MAX_PER_ADDRESS} failures lock the address`, async () => {
    const sprayer = newAddress();
    for (let failure = 0; failure < MAX_PER_ADDRESS; failure++) {
      await grant(`no-such-client-${failure}`, 'wrong-secret', sprayer).expect(401);
    }
    expectLocked(await grant(t.clientId, t.clientSecret, sprayer));
    expectLocked(await grant('no-such-client-x', 'wrong-secret', sprayer));
    await grant(t.clientId, t.clientSecret, newAddress()).expect(200);
  });

  it('the revocation endpoint authenticates clients under the same counters', async () => {
    const client = await newClient();
    const attacker = newAddress();
    for (let failure = 0; failure < MAX_FAILURES; failure++) {
      await grant(client.clientId, 'wrong-secret', attacker, '/oauth/revoke').expect(401);
    }
    expectLocked(await grant(client.clientId, client.clientSecret, attacker, '/oauth/revoke'));
    expectLocked(await grant(client.clientId, client.clientSecret, attacker));
  });

  it('a successful authentication is not counted as a failure', async () => {
    const client = await newClient();
    const address = newAddress();
    await grant(client.clientId, 'wrong-secret', address).expect(401);
    for (let success = 0; success < MAX_FAILURES + 1; success++) {
      await grant(client.clientId, client.clientSecret, address).expect(200);
    }
    await grant(client.clientId, 'wrong-secret', address).expect(401);
    await grant(client.clientId, client.clientSecret, address).expect(200);
  });
});

describe('token endpoint: hashing has bounded concurrency', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start({
      // Hashes of the production cost, long enough for a burst to fill the gate.
      env: {
        DAM_HASH_CONCURRENCY: '1',
        DAM_HASH_MAX_WAITING: '2',
        DAM_HASH_COST: '15',
        DAM_TRUST_PROXY: 'true',
      },
    });
  });
  afterAll(() => t?.close());

  it('answers 503 with Retry-After past DAM_HASH_CONCURRENCY + DAM_HASH_MAX_WAITING hashes at once; the rest are checked', async () => {
    const burst = Array.from({ length: 16 }, (_, index) =>
      t.http
        .post('/oauth/token')
        .set('X-Forwarded-For', `198.19.0.${index + 1}`)
        .type('form')
        .send({ grant_type: 'client_credentials', client_id: `nobody-${index}`, client_secret: 'wrong' })
        .then((response) => response),
    );
    const live = await t.http.get('/health/live');
    expect(live.status).toBe(200);
    const answers = await Promise.all(burst);
    const busy = answers.filter((response) => response.status === 503);
    expect(busy.length).toBeGreaterThanOrEqual(1);
    for (const response of busy) {
      expect(response.headers['retry-after']).toBe('5');
      expect(response.text).toBe(
        'too many passwords and secrets are being checked at once; try again shortly',
      );
    }
    // At least as many as the gate holds were checked (wrong secret: 401), and nothing else came back.
    const checked = answers.filter((response) => response.status === 401);
    expect(checked.length).toBeGreaterThanOrEqual(3);
    expect(busy.length + checked.length).toBe(16);
    // Once the burst has passed, the right secret works again.
    await t.clientCredentialsToken();
  });

  it('have defaults of 2 at once and 32 waiting', async () => {
    const defaults = await TestApp.start();
    try {
      expect(defaults.config.hashConcurrency).toBe(2);
      expect(defaults.config.hashMaxWaiting).toBe(32);
    } finally {
      await defaults.close();
    }
  });
});
