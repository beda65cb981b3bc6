import { postForm } from './helpers/oauth-form';
import { TestApp } from './helpers/test-app';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Access tokens live TTL_S seconds here. MariaDB keeps whole seconds, so a token lives between TTL_S - 1
 * and TTL_S: 3 s leave a request made right after issuing 3x slack over the second it may take on a loaded
 * machine, and waiting EXPIRED_MS is past any token's end.
 */
const TTL_S = 3;
const EXPIRED_MS = TTL_S * 1000 + 1500;

describe('OAuth token expiry', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start({ env: { DAM_ACCESS_TOKEN_TTL_SECONDS: String(TTL_S) } });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('an expired access token is 401', async () => {
    const response = await postForm(t, '/oauth/token', {
      grant_type: 'client_credentials',
      client_id: t.clientId,
      client_secret: t.clientSecret,
    }).expect(200);
    expect(response.body.expires_in).toBe(TTL_S);
    const token = response.body.access_token as string;
    await t.http.get('/rest/authenticated-user').auth(token, { type: 'bearer' }).expect(200);
    await sleep(EXPIRED_MS);
    const expired = await t.http.get('/rest/authenticated-user').auth(token, { type: 'bearer' }).expect(401);
    expect(expired.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
  });

  it('a refresh token still gets a fresh access token after the access token expired', async () => {
    // Admin tokens are short-lived here too: take a fresh one right before each admin request.
    const username = `expiry-${Date.now()}`;
    const password = 'a long enough password';
    const created = await t.http
      .post('/rest/users')
      .query({ username })
      .auth(await t.clientCredentialsToken(), { type: 'bearer' })
      .expect(201);
    await t.http
      .put(`/rest/users/${created.body.id}`)
      .auth(await t.clientCredentialsToken(), { type: 'bearer' })
      .send({ password })
      .expect(200);
    const user = { username, password };
    const login = await postForm(t, '/oauth/token', {
      grant_type: 'password',
      username: user.username,
      password: user.password,
      client_id: t.clientId,
      client_secret: t.clientSecret,
    }).expect(200);
    await sleep(EXPIRED_MS);
    const refreshed = await postForm(t, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: login.body.refresh_token,
      client_id: t.clientId,
      client_secret: t.clientSecret,
    }).expect(200);
    await t.http
      .get('/rest/authenticated-user')
      .auth(refreshed.body.access_token as string, { type: 'bearer' })
      .expect(200);
  });
});
