import { exportSPKI, importJWK, SignJWT } from 'jose';
import { bearerRequests } from './helpers/bearer-requests';
import { MATRIX } from './helpers/databases';
import { AUDIENCE, OidcIssuer, signingKey } from './helpers/oidc-issuer';
import { TestApp } from './helpers/test-app';

/** DAM_OIDC_FETCH_TIMEOUT_MS of the app under test. */
const FETCH_TIMEOUT_MS = 1000;
/** After a failed fetch the service waits this long before asking the provider again (oidc-keys.ts). */
const FAILED_FETCH_PAUSE_MS = 5000;
const seconds = (offset: number): number => Math.floor(Date.now() / 1000) + offset;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const base64url = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * Issue 32: which JWTs are refused (each a 401 with `WWW-Authenticate: Bearer error="invalid_token"` and
 * a one-line reason), key rotation, and the service's behaviour while the provider is unreachable or hangs.
 * Tokens signed by hand with the provider's own key (or another), beside ones from its token endpoint.
 */
describe(`single sign-on: refused tokens, rotation and outages (${MATRIX})`, () => {
  let issuer: OidcIssuer;
  let t: TestApp;
  const http = bearerRequests(() => t);
  const claims = { preferred_username: 'hana' };

  beforeAll(async () => {
    issuer = await OidcIssuer.start();
    // Unreachable (connections hang) while the service boots and first needs its keys.
    issuer.availability = 'hanging';
    t = await TestApp.start({
      env: {
        DAM_OIDC_ISSUER: issuer.issuer,
        DAM_OIDC_AUDIENCE: AUDIENCE,
        DAM_OIDC_FETCH_TIMEOUT_MS: String(FETCH_TIMEOUT_MS),
      },
    });
  });

  afterAll(async () => {
    await t?.close();
    await issuer?.stop();
  });

  async function expectRefused(token: string, reason: string): Promise<void> {
    const response = await http.get('/rest/authenticated-user', token);
    expect({ status: response.status, text: response.text }).toEqual({ status: 401, text: reason });
    expect(response.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
  }

  it('boots and serves its own tokens while the provider hangs; a JWT is 401 within the fetch timeout', async () => {
    // TestApp.start itself used the client_credentials grant.
    await http.get('/rest/authenticated-user', t.adminToken).expect(200);
    const token = await issuer.sign(claims);
    const started = Date.now();
    await expectRefused(token, "the identity provider's signing keys are unavailable");
    expect(Date.now() - started).toBeLessThan(FETCH_TIMEOUT_MS * 4);
    issuer.availability = 'up';
    await sleep(FAILED_FETCH_PAUSE_MS + 200);
    expect((await http.get('/rest/authenticated-user', token).expect(200)).body.username).toBe('hana');
  });

  it('accepts a token signed by hand with the provider key, and 60 s of clock leeway', async () => {
    await http
      .get('/rest/authenticated-user', await issuer.sign(claims, { expiresIn: seconds(-30) }))
      .expect(200);
    await http
      .get('/rest/authenticated-user', await issuer.sign({ ...claims, nbf: seconds(30) }))
      .expect(200);
  });

  it.each<[string, () => Promise<string>, string]>([
    ['expired', () => issuer.sign(claims, { expiresIn: seconds(-120) }), 'the token has expired'],
    ['not valid yet', () => issuer.sign({ ...claims, nbf: seconds(300) }), 'the token is not valid yet'],
    [
      'for another audience',
      () => issuer.sign({ ...claims, aud: 'https://other.example/api' }),
      `the token is not meant for this service (audience ${AUDIENCE})`,
    ],
    [
      'from another issuer',
      () => issuer.sign({ ...claims, iss: 'https://evil.example' }),
      'the token was not issued by {issuer}',
    ],
    [
      'with a bad signature (another key, the provider key id)',
      async () => issuer.sign(claims, { key: await signingKey('forger'), kid: issuer.key.kid }),
      "the token's signature is invalid",
    ],
    [
      'alg none',
      async () =>
        `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ ...claims, iss: issuer.issuer, aud: AUDIENCE, exp: seconds(600) })}.`,
      'the token is not signed with an asymmetric algorithm (none and HS* are refused)',
    ],
    [
      'HS256 with the public key as the secret',
      async () => {
        const pem = await exportSPKI((await importJWK(issuer.key.publicJwk, 'RS256')) as CryptoKey);
        return new SignJWT(claims)
          .setProtectedHeader({ alg: 'HS256', kid: issuer.key.kid })
          .setIssuer(issuer.issuer)
          .setAudience(AUDIENCE)
          .setExpirationTime('10m')
          .sign(new TextEncoder().encode(pem));
      },
      'the token is not signed with an asymmetric algorithm (none and HS* are refused)',
    ],
    [
      'without the username claim',
      () => issuer.sign({ sub: 'someone' }),
      'the token has no preferred_username claim naming its user',
    ],
    [
      'naming the application user',
      () => issuer.sign({ preferred_username: 'application' }),
      'the token names the application user (application), whom no one signs in as',
    ],
    ['that is no JWT at all', async () => 'not.a.jwt', 'the token is not a valid signed JWT'],
  ])('refuses a token %s', async (_, token, reason) => {
    await expectRefused(await token(), reason.replace('{issuer}', issuer.issuer));
  });

  it("the service's own invalid tokens answer as before", async () => {
    const response = await http.get('/rest/authenticated-user', 'x'.repeat(43)).expect(401);
    expect(response.text).toBe('the access token is missing, invalid, expired or revoked');
  });

  it('a rotated key works at once; an unknown key id refetches the keys at most once per 10 s', async () => {
    const before = await issuer.issue(claims);
    await http.get('/rest/authenticated-user', before).expect(200);
    const fetches = issuer.jwksFetches;
    await issuer.rotate('key-2');
    const after = await issuer.issue(claims);
    expect(JSON.parse(Buffer.from(after.split('.')[0], 'base64url').toString()).kid).toBe('key-2');
    await http.get('/rest/authenticated-user', after).expect(200);
    expect(issuer.jwksFetches).toBe(fetches + 1);
    // A token already verified stays so within its lifetime.
    await http.get('/rest/authenticated-user', before).expect(200);
    const stranger = await issuer.sign(claims, { key: await signingKey('key-3') });
    await expectRefused(stranger, 'the token is signed with a key the identity provider does not publish');
    expect(issuer.jwksFetches).toBe(fetches + 1);
  });

  it('with the provider down, kept keys verify new tokens and the rest is 401 at once', async () => {
    issuer.availability = 'refusing';
    try {
      await http
        .get('/rest/authenticated-user', await issuer.sign({ preferred_username: 'ines' }))
        .expect(200);
      const started = Date.now();
      await expectRefused(
        await issuer.sign(claims, { key: await signingKey('key-4') }),
        'the token is signed with a key the identity provider does not publish',
      );
      expect(Date.now() - started).toBeLessThan(FETCH_TIMEOUT_MS * 4);
    } finally {
      issuer.availability = 'up';
    }
  });
});
